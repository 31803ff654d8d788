import { expect, it } from "vitest"
import { stubApp } from "../test/stub-app.js"

const post = (app: ReturnType<typeof stubApp>, path: string, body: string, headers: Record<string, string> = {}) =>
  app.request(`http://127.0.0.1${path}`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body })

it("answers a body over the limit with 413 body_too_large, on /v1 and on /mcp", async () => {
  const app = stubApp({ maxBodyBytes: 64 })
  const big = JSON.stringify({ code: "x".repeat(100) })
  for (const path of ["/v1/execute", "/v1/sources", "/mcp"]) {
    // declared by Content-Length, and counted while streaming
    for (const headers of [{ "content-length": String(big.length) }, {}] as Record<string, string>[]) {
      const response = await post(app, path, big, headers)
      expect(response.status, path).toBe(413)
      expect(await response.json()).toEqual({ error: { code: "body_too_large", message: "the request body is larger than this server's limit of 64 bytes" } })
    }
  }
})

it("takes a body at the limit", async () => {
  const body = JSON.stringify({ code: "return 1" })
  expect((await post(stubApp({ maxBodyBytes: body.length }), "/v1/execute", body)).status).toBe(200)
})

it("defaults to 10 MiB", async () => {
  const response = await post(stubApp(), "/v1/execute", "{}", { "content-length": String(10 * 1024 * 1024 + 1) })
  expect(response.status).toBe(413)
  expect(((await response.json()) as { error: { message: string } }).error.message).toMatch(/limit of 10 MiB \(10485760 bytes\)/)
})

it("refuses a limit that is not a positive whole number", () => {
  expect(() => stubApp({ maxBodyBytes: 0 })).toThrow(/maxBodyBytes/)
  expect(() => stubApp({ maxBodyBytes: 1.5 })).toThrow(/maxBodyBytes/)
})
