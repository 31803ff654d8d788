/**
 * A group of routes that share what their handlers need (`deps`, built once per app from the services). Each route
 * is one object: its RouteSpec and its handler. The group registers each on the app with the spec's validators
 * before the handler, and carries the route types the typed client (../client.ts) reads, as hono's own
 * `app.post(path, validator, handler)` does.
 */
import type { Context, MiddlewareHandler, TypedResponse } from "hono"
import type { Hono } from "hono"
import type { HandlerResponse, Schema, ToSchema } from "hono/types"
import type { z } from "zod"
import type { AppServices } from "../app-services.js"
import type { DownloadSlots } from "../download-slots.js"
import type { AppEnv } from "../env.js"
import { jsonBody, jsonForService, query } from "../validate.js"
import type { Method, NamedBody, RouteSpec } from "./route-spec.js"

/** What the app hands every group besides the services: its options, settled. */
export interface RouteOptions {
  maxBodyBytes: number
  downloads: DownloadSlots
  keysHint?: string
  metrics?: () => Promise<{ contentType: string; body: string }>
  /** the OpenAPI document, built at its first request */
  openApi: () => Record<string, unknown>
  /** where people reach this server, without a trailing slash (AppOptions.publicUrl): ../console-links.ts `serverBase` */
  publicUrl?: string
  /** the app serves the web console (../console-assets.ts): paused answers link to the approval's page */
  console?: boolean
}

/** A query string arrives as text: the typed client sends each parameter as a string. */
type QueryText<T> = { [K in keyof T]?: string }

type BodyInput<B> = B extends z.ZodType
  ? { in: { json: z.input<B> }; out: { json: z.output<B> } }
  : B extends NamedBody<infer T>
    ? [T] extends [never]
      ? {}
      : { in: { json: T }; out: { json: unknown } }
    : {}
type QueryInput<Q> = Q extends z.ZodType ? { in: { query: QueryText<z.input<Q>> }; out: { query: z.output<Q> } } : {}
export type InputOf<B, Q> = BodyInput<B> & QueryInput<Q>

/** hono's own (not exported): a handler's answers as the typed responses they carry. */
type MergeTypedResponse<T> =
  T extends Promise<void>
    ? T
    : T extends Promise<infer T2>
      ? T2 extends TypedResponse
        ? T2
        : TypedResponse
      : T extends TypedResponse
        ? T
        : TypedResponse

export type Route<D, M extends Method, P extends string, B, Q, R> = RouteSpec<M, P, B, Q> & {
  handler: (c: Context<AppEnv, P, InputOf<B, Q>>, deps: D) => R
}

export interface RouteGroup<D, S extends Schema> {
  readonly routes: readonly RouteSpec[]
  /** Adds a route; the group's type gains its path, input and answers. */
  route<
    M extends Method,
    P extends string,
    B = undefined,
    Q = undefined,
    R extends HandlerResponse<unknown> = Response,
  >(route: Route<D, M, P, B, Q, R>): RouteGroup<D, S & ToSchema<M, P, InputOf<B, Q>, MergeTypedResponse<R>>>
  /** Middleware for every request under `path` (a hono pattern), registered before the group's routes. */
  use(path: string, middleware: (deps: D) => MiddlewareHandler<AppEnv>): RouteGroup<D, S>
  /** Registers the group on `app`: when `enabled` says no (a route the host did not ask for), nothing. */
  register(app: Hono<AppEnv>, services: AppServices, options: RouteOptions): void
}

export type SchemaOf<G> = G extends RouteGroup<unknown, infer S> ? S : never

/** What runs before the handler: the query, then the body (a bad query is answered before the body is read). */
const validators = (spec: RouteSpec): MiddlewareHandler<AppEnv>[] => {
  const before: MiddlewareHandler<AppEnv>[] = []
  if (spec.query) before.push(query(spec.query as z.ZodType))
  const body = spec.body as z.ZodType | NamedBody<unknown> | undefined
  if (body && "component" in body) {
    if (body.readJson) before.push(jsonForService)
  } else if (body) before.push(jsonBody(body))
  return before
}

export const routeGroup = <D>(
  deps: (services: AppServices, options: RouteOptions) => D,
  enabled: (options: RouteOptions) => boolean = () => true,
): RouteGroup<D, {}> => {
  const routes: Route<D, Method, string, unknown, unknown, HandlerResponse<unknown>>[] = []
  const uses: { path: string; middleware: (deps: D) => MiddlewareHandler<AppEnv> }[] = []
  const group: RouteGroup<D, {}> = {
    routes,
    route(route) {
      routes.push(route as unknown as (typeof routes)[number])
      return group as never
    },
    use(path, middleware) {
      uses.push({ path, middleware })
      return group
    },
    register(app, services, options) {
      if (!enabled(options)) return
      const built = deps(services, options)
      for (const { path, middleware } of uses) app.use(path, middleware(built))
      // hono's overloads type a fixed count of handlers; the types the client reads come from `route` above
      const on = app.on.bind(app) as (method: string, path: string, ...handlers: MiddlewareHandler<AppEnv>[]) => unknown
      for (const route of routes) {
        const handler = (c: Context<AppEnv>) => route.handler(c as never, built) as Promise<Response>
        on(route.method.toUpperCase(), route.path, ...validators(route), handler)
      }
    },
  }
  return group
}
