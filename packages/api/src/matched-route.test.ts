import { Hono } from "hono"
import { matchedRoutes } from "hono/route"
import { expect, it, vi } from "vitest"
import { matchedRoute } from "./matched-route.js"

vi.mock("hono/route", async (original) => {
  const actual = await original<typeof import("hono/route")>()
  return { ...actual, matchedRoutes: vi.fn(actual.matchedRoutes) }
})

const seen: (string | null)[] = []
const app = new Hono()
  .use("*", async (c, next) => {
    seen.push(matchedRoute(c))
    await next()
    seen.push(matchedRoute(c))
  })
  .get("/v1/executions/:id", (c) => c.text("ok"))

it("names the matched route's pattern, not middleware's, and works it out once per request", async () => {
  vi.mocked(matchedRoutes).mockClear()
  seen.length = 0
  expect((await app.request("/v1/executions/abc")).status).toBe(200)
  expect(seen).toEqual(["/v1/executions/:id", "/v1/executions/:id"])
  expect(vi.mocked(matchedRoutes)).toHaveBeenCalledTimes(1)
})

it("is null when no route matched", async () => {
  vi.mocked(matchedRoutes).mockClear()
  seen.length = 0
  expect((await app.request("/nowhere")).status).toBe(404)
  expect(seen).toEqual([null, null])
  expect(vi.mocked(matchedRoutes)).toHaveBeenCalledTimes(1)
})
