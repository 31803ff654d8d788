/**
 * The SDK's http transport passes one AbortSignal, alive as long as the connection, to every request it sends.
 * Node's fetch hangs a listener on it per request and lets go only when the request is garbage collected, so a
 * busy pooled connection piled up thousands ("MaxListenersExceededWarning: Possible EventTarget memory leak",
 * seen under `pnpm bench:worker`). Each request now gets a signal of its own, tied to the connection's only while
 * the request is in flight.
 */
import { getEventListeners } from "node:events"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, beforeAll, expect, it } from "vitest"
import { boundedFetch } from "../src/bounded-fetch.js"

let url: string
let close: () => Promise<void>
beforeAll(async () => {
  const server = createServer((request, response) => {
    request.resume()
    request.on("end", () => {
      if (request.url === "/slow") return void setTimeout(() => response.end("{}"), 5_000)
      response.writeHead(200, { "content-type": "application/json" }).end('{"ok":true}')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  close = () => new Promise((resolve) => (server.closeAllConnections(), server.close(() => resolve())))
})
afterAll(() => close())

it("finished requests leave no listener on the connection's signal", async () => {
  const connection = new AbortController()
  const fetchBounded = boundedFetch()
  for (let i = 0; i < 50; i++) {
    const response = await fetchBounded(`${url}/`, { method: "POST", body: "{}", signal: connection.signal })
    expect(await response.json()).toEqual({ ok: true })
  }
  expect(getEventListeners(connection.signal, "abort").length).toBe(0)
})

it("aborting the connection still aborts a request in flight", async () => {
  const connection = new AbortController()
  const pending = boundedFetch()(`${url}/slow`, { method: "POST", body: "{}", signal: connection.signal })
  setTimeout(() => connection.abort(new Error("connection closed")), 50)
  await expect(pending).rejects.toThrow()
  expect(getEventListeners(connection.signal, "abort").length).toBe(0)
})
