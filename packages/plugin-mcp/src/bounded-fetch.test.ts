import { expect, it } from "vitest"
import { UpstreamMessageTooLarge, boundedFetch } from "./bounded-fetch.js"

const encoder = new TextEncoder()

/** A fetch answering with these chunks as the body: a real Response and stream, no server needed for the bounds. */
const answering =
  (chunks: string[], type: string, status = 200) =>
  async () =>
    new Response(
      new ReadableStream<Uint8Array>({
        start(controller) {
          for (const chunk of chunks) controller.enqueue(encoder.encode(chunk))
          controller.close()
        },
      }),
      { status, headers: { "content-type": type } },
    )

const read = (chunks: string[], type: string, status = 200, limit = 1_000) =>
  boundedFetch(answering(chunks, type, status), limit)("http://upstream.test/mcp").then((r) => r.text())

const event = (bytes: number) => `data: ${"x".repeat(bytes - 7)}\n`

it("an event stream may go on past the bound, event after event; one event past it fails", async () => {
  const events = [event(600), "\n", event(600), "\r\n", "\r", "\n", event(600), "\n\n"]
  expect(await read(events, "text/event-stream")).toBe(events.join(""))
  await expect(read([event(600), event(600), "\n"], "text/event-stream")).rejects.toBeInstanceOf(
    UpstreamMessageTooLarge,
  )
})

it("a blank line split across chunks still ends an event", async () => {
  const events = [event(900), "\n", event(900), "\n", "\n", event(900), "\r", "\n\r", "\n", event(900)]
  expect(await read(events, "text/event-stream")).toBe(events.join(""))
})

it("a JSON body past the bound fails; one within it passes whole", async () => {
  expect(await read(['{"a":', '"b"}'], "application/json")).toBe('{"a":"b"}')
  await expect(read(["x".repeat(600), "x".repeat(600)], "application/json")).rejects.toThrow(/larger than 1000 bytes/)
})

it("an error response keeps its first 4 KiB", async () => {
  const text = await read(["e".repeat(3_000), "e".repeat(3_000)], "text/plain", 500)
  expect(text).toBe("e".repeat(4 * 1024))
})
