import { expect, it } from "vitest"
import type { ExecuteRequest } from "@switchboard/core"
import { stubApp, stubServices } from "../test/stub-app.js"

const post = (app: ReturnType<typeof stubApp>, path: string, body: string, headers: Record<string, string> = {}) =>
  app.request(`http://127.0.0.1${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body,
  })

it("answers a body over the limit with 413 body_too_large, on /v1 and on /mcp", async () => {
  const app = stubApp({ maxBodyBytes: 64 })
  const big = JSON.stringify({ code: "x".repeat(100) })
  for (const path of ["/v1/execute", "/v1/sources", "/mcp"]) {
    // declared by Content-Length, and counted while streaming
    for (const headers of [{ "content-length": String(big.length) }, {}] as Record<string, string>[]) {
      const response = await post(app, path, big, headers)
      expect(response.status, path).toBe(413)
      expect(await response.json()).toEqual({
        error: { code: "body_too_large", message: "the request body is larger than this server's limit of 64 bytes" },
      })
    }
  }
})

/** A Request that counts reads of its `body` getter: the costly one on @hono/node-server. */
const spiedRequest = (path: string, body: string | ReadableStream, headers: Record<string, string>) => {
  const request = new Request(`http://127.0.0.1${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body,
    duplex: "half",
  } as RequestInit)
  const stream = request.body
  const reads = { body: 0 }
  Object.defineProperty(request, "body", {
    get: () => {
      reads.body++
      return stream
    },
  })
  return { request, reads }
}

/** An app whose executor keeps the requests it was asked to run: a body that reached it was read and parsed. */
const parsingApp = (maxBodyBytes: number) => {
  const parsed: unknown[] = []
  const services = stubServices()
  const executor = {
    ...services.executor,
    run: (request: ExecuteRequest, signal?: AbortSignal) => (
      parsed.push(request), services.executor.run(request, signal)
    ),
  }
  return { app: stubApp({ maxBodyBytes }, { executor }), parsed }
}

it("refuses a declared Content-Length over the limit at once, without reading the body", async () => {
  const { app, parsed } = parsingApp(64)
  const { request, reads } = spiedRequest("/v1/execute", JSON.stringify({ code: "x".repeat(100) }), {
    "content-length": "112",
  })
  const response = await app.request(request)
  expect(response.status).toBe(413)
  expect(await response.json()).toEqual({
    error: { code: "body_too_large", message: "the request body is larger than this server's limit of 64 bytes" },
  })
  expect(reads.body).toBe(0)
  expect(parsed).toEqual([])
})

it("passes a declared Content-Length under the limit straight on: the JSON is parsed and the body getter never read", async () => {
  const { app, parsed } = parsingApp(64)
  const body = JSON.stringify({ code: "return 1" })
  const { request, reads } = spiedRequest("/v1/execute", body, { "content-length": String(body.length) })
  const response = await app.request(request)
  expect(response.status).toBe(200)
  expect(parsed).toEqual([{ code: "return 1" }])
  expect(reads.body).toBe(0)
})

it("counts a chunked body over the limit as it streams, and one that also declares a length", async () => {
  const chunks = ['{"code":"', "x".repeat(50), "x".repeat(50), '"}']
  const stream = () =>
    new ReadableStream({
      start: (controller) => (
        chunks.forEach((chunk) => controller.enqueue(new TextEncoder().encode(chunk))), controller.close()
      ),
    })
  // Transfer-Encoding wins over a Content-Length (RFC 9112 §6.3), so a small declared length is not trusted
  for (const headers of [
    { "transfer-encoding": "chunked" },
    { "transfer-encoding": "chunked", "content-length": "10" },
    {},
  ] as Record<string, string>[]) {
    const { app, parsed } = parsingApp(64)
    const response = await app.request(spiedRequest("/v1/execute", stream(), headers).request)
    expect(response.status, JSON.stringify(headers)).toBe(413)
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe("body_too_large")
    expect(parsed).toEqual([])
  }
})

it("parses a chunked body under the limit", async () => {
  const { app, parsed } = parsingApp(64)
  const body = new ReadableStream({
    start: (controller) => (controller.enqueue(new TextEncoder().encode('{"code":"return 2"}')), controller.close()),
  })
  const response = await app.request(spiedRequest("/v1/execute", body, { "transfer-encoding": "chunked" }).request)
  expect(response.status).toBe(200)
  expect(parsed).toEqual([{ code: "return 2" }])
})

it("does not look for a body on GET", async () => {
  const app = stubApp({ maxBodyBytes: 64 })
  const request = new Request("http://127.0.0.1/v1/executions/e1")
  Object.defineProperty(request, "body", { get: () => expect.fail("the body getter was read") })
  expect((await app.request(request)).status).toBe(404)
})

it("takes a body at the limit", async () => {
  const body = JSON.stringify({ code: "return 1" })
  expect((await post(stubApp({ maxBodyBytes: body.length }), "/v1/execute", body)).status).toBe(200)
})

it("defaults to 10 MiB", async () => {
  const response = await post(stubApp(), "/v1/execute", "{}", { "content-length": String(10 * 1024 * 1024 + 1) })
  expect(response.status).toBe(413)
  expect(((await response.json()) as { error: { message: string } }).error.message).toMatch(
    /limit of 10 MiB \(10485760 bytes\)/,
  )
})

it("refuses a limit that is not a positive whole number", () => {
  expect(() => stubApp({ maxBodyBytes: 0 })).toThrow(/maxBodyBytes/)
  expect(() => stubApp({ maxBodyBytes: 1.5 })).toThrow(/maxBodyBytes/)
})
