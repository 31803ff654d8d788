/** A route defined once: the app registers it with its checks, and the OpenAPI document writes it, from one object. */
import { Hono } from "hono"
import { z } from "zod"
import { expect, it } from "vitest"
import type { AppServices } from "../app-services.js"
import type { AppEnv } from "../env.js"
import { operationOf } from "../openapi/operation.js"
import { routeGroup } from "./route-group.js"
import type { RouteOptions } from "./route-group.js"

const word = z.object({ word: z.string().describe("any word") })

const echo = routeGroup(() => ({ suffix: "!" })).route({
  method: "post",
  path: "/v1/echo/:id",
  scope: "execute",
  operationId: "echo",
  tag: "tools",
  summary: "Echo a word",
  params: { id: "the echo's id" },
  body: word,
  responses: { 201: { description: "the word again", json: word } },
  errors: ["NotFound"],
  handler: (c, { suffix }) =>
    c.req.param("id") === "none"
      ? c.json({ error: { code: "not_found", message: "no echo" } }, 404)
      : c.json({ word: `${c.req.valid("json").word}${suffix}` }, 201),
})

const app = new Hono<AppEnv>()
echo.register(app, {} as AppServices, {} as RouteOptions)
const post = (path: string, body: string) =>
  app.request(path, { method: "POST", headers: { "content-type": "application/json" }, body })

it("registers the route with its body checked by the schema it names", async () => {
  const echoed = await post("/v1/echo/e1", JSON.stringify({ word: "hi" }))
  expect(echoed.status).toBe(201)
  expect(await echoed.json()).toEqual({ word: "hi!" })
  const wrong = await post("/v1/echo/e1", JSON.stringify({ word: 1 }))
  expect(wrong.status).toBe(400)
  expect(((await wrong.json()) as { error: { code: string } }).error.code).toBe("invalid_request")
  expect((await post("/v1/echo/e1", "{")).status).toBe(400)
})

it("writes its operation from the same object: statuses, scope, parameters, and a schema no component names inline", () => {
  const [spec] = echo.routes
  const operation = operationOf(spec!, { request: new Map(), response: new Map() })
  // its own answers, the handler's 404, and what the key check, the request guard and the body check answer
  expect(Object.keys(operation.responses)).toEqual(["201", "400", "401", "403", "404", "413", "415", "500", "503"])
  expect(operation.security).toEqual([{}, { apiKey: ["execute"] }])
  expect(operation.parameters).toEqual([
    { name: "id", in: "path", required: true, description: "the echo's id", schema: { type: "string" } },
  ])
  expect(operation.requestBody?.content["application/json"].schema).toMatchObject({
    type: "object",
    properties: { word: { type: "string", description: "any word" } },
  })
})

it("refuses a definition that gives one status two meanings", () => {
  const twice = routeGroup(() => ({})).route({
    method: "get",
    path: "/v1/twice",
    scope: "read",
    operationId: "twice",
    tag: "meta",
    summary: "Two answers for 409",
    responses: { 200: { description: "ok" } },
    errors: ["Conflict", "SecretsUnreadable"],
    handler: (c) => c.body(null, 200),
  })
  expect(() => operationOf(twice.routes[0]!, { request: new Map(), response: new Map() })).toThrow(
    "twice: two answers for status 409",
  )
})
