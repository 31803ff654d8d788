/**
 * A typed client of the HTTP API: hono's `hc` over the app's own route types. Each route's path, its JSON body
 * and query string as its zod schema takes them, and its answers as the route sends them (the same types the
 * routes' `satisfies` checks tie to ./wire). Runtime-neutral, like the app.
 */
import { hc } from "hono/client"
import type { ClientRequestOptions } from "hono/client"
import type { App } from "./app.js"

export const createClient = (baseUrl: string, options?: ClientRequestOptions) => hc<App>(baseUrl, options)

export type Client = ReturnType<typeof createClient>
