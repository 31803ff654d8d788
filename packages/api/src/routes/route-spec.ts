/**
 * What one route is: its method and path, the scope it needs, what it reads and answers, and its prose. The app
 * registers it (./route-group.ts), the scope table derives from it (../scopes.ts), and the OpenAPI document is
 * written from it (../openapi/operation.ts), so none of the three can disagree with another.
 */
import type { ParamKeys } from "hono/types"
import type { z } from "zod"
import type * as Auth from "@switchboard/core/auth"
import type { ErrorResponseName } from "../openapi/error-responses.js"
import type { RequestSchemaName } from "../openapi/components.js"
import type { JsonSchema } from "../wire/json-schema.js"

export type Method = "get" | "post" | "patch" | "delete"

export type Tag = "meta" | "sources" | "tools" | "executions" | "mcp" | "keys" | "approvals"

/**
 * A body the route does not check with a zod schema of its own: a source's fields depend on its kind's plugin,
 * which only the sources service holds; the MCP transport reads its own. `T` is what the typed client sends.
 */
export interface NamedBody<T> {
  /** how the document names it (../openapi/components.ts) */
  component: RequestSchemaName
  /** read the JSON for the handler (`c.req.valid("json")`), which passes it to its service to check */
  readJson: boolean
  /** never set: carries `T` for the types */
  readonly sends?: T
}

/** The body its service checks: read as JSON, typed for the client as `T`. */
export const checkedByService = <T>(component: RequestSchemaName): NamedBody<T> => ({ component, readJson: true })

/** A body the handler reads itself (the MCP transport): only documented here, and not typed for the client. */
export const readByHandler = (component: RequestSchemaName): NamedBody<never> => ({ component, readJson: false })

/** One answer of a route besides its errors. */
export interface Answer {
  description: string
  /** a JSON body: its schema (a component when ../openapi/components.ts names it), several (any one of them), or JSON Schema */
  json?: z.ZodType | readonly z.ZodType[] | JsonSchema
  /** a text/plain body */
  text?: true
  /** a text/html body: a page for a person in a browser (the OAuth callback's) */
  html?: true
  headers?: Record<string, JsonSchema>
}

/** An error answer the route's handler gives (../openapi/error-responses.ts), with its own description if need be. */
export type ErrorEntry = ErrorResponseName | { error: ErrorResponseName; description: string }

/** Each path parameter, described: required exactly when the path has one. */
type PathParams<P extends string> = [ParamKeys<P>] extends [never]
  ? { params?: undefined }
  : { params: Record<ParamKeys<P>, string> }

export type RouteSpec<M extends Method = Method, P extends string = string, B = unknown, Q = unknown> = {
  method: M
  /** hono's pattern, the whole path (`/v1/executions/:id`) */
  path: P
  /** null: any live key (and on a server without keys, anyone) */
  scope: Auth.Scope | null
  /** a probe (/healthz, /readyz): no key at all, and none of the app's error answers */
  probe?: true
  /** answers in JSON-RPC (/mcp): of the app's error answers, only those made before the route runs */
  jsonRpc?: true
  /** not in the OpenAPI document, which describes the JSON API every host serves (/metrics) */
  hidden?: true
  operationId: string
  tag: Tag
  summary: string
  description?: string
  /** the query string, checked before the route runs (`c.req.valid("query")`) */
  query?: Q
  /** a JSON body: a zod schema checked before the route runs (`c.req.valid("json")`), or a NamedBody */
  body?: B
  responses: Readonly<Record<number, Answer>>
  /** the error answers of the handler; those of the key check, the request guard and the validators are added */
  errors?: readonly ErrorEntry[]
} & PathParams<P>
