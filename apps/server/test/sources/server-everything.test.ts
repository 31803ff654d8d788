/** A real third-party MCP server from npm, over stdio (the HTTP scenario suite runs it over streamable HTTP). */
import { createRequire } from "node:module"
import { afterAll, beforeAll, expect, it } from "vitest"
import { everythingCalls } from "@switchboard/fixtures/http-scenarios"
import { startTestServer } from "../support/helpers.js"
import type { TestServer } from "../support/helpers.js"

const everythingBin = createRequire(import.meta.url).resolve("@modelcontextprotocol/server-everything/dist/index.js")
let server: TestServer

beforeAll(async () => {
  server = await startTestServer({ allowStdio: true })
  const added = await server.request("POST", "/v1/sources", {
    namespace: "everything",
    kind: "mcp",
    transport: { type: "stdio", command: process.execPath, args: [everythingBin, "stdio"] },
  })
  expect(added.status).toBe(201)
}, 30_000)
afterAll(() => server?.stop())

it("lists its tools, names kept as sent", async () => {
  const names = (await server.request("GET", "/v1/tools?namespace=everything")).body.tools.map(
    (t: { name: string }) => t.name,
  )
  expect(names).toEqual(expect.arrayContaining(["echo", "get-sum", "get-structured-content", "get-tiny-image"]))
})

it("echo, get-sum and get-structured-content from one script", async () => {
  const response = await server.execute(everythingCalls.code)
  expect(response.ok).toBe(true)
  expect(response.result).toEqual(everythingCalls.result)
}, 30_000)
