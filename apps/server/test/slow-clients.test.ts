/**
 * Slow and vanishing clients (issue 14 §6): connections are capped, a client that trickles its headers or
 * body is cut off, and a body abandoned halfway is one log line, never an internal error with a stack.
 * Real sockets on loopback against a real server.
 */
import { connect } from "node:net"
import type { Socket } from "node:net"
import { join } from "node:path"
import { afterAll, beforeAll, expect, it } from "vitest"
import { startServer } from "../src/serve.js"
import type { RunningServer } from "../src/serve.js"
import { memoryLogger, tempDir } from "./helpers.js"

const log = memoryLogger()
const dir = tempDir()
let server: RunningServer
let port: number
beforeAll(async () => {
  server = await startServer({
    db: join(dir.dir, "catalog.db"),
    port: 0,
    logger: log.logger,
    runtime: "in-thread",
    maxConnections: 8,
    headersTimeoutMs: 500,
    requestTimeoutMs: 1_000,
  })
  port = Number(new URL(server.url).port)
})
afterAll(async () => {
  await server?.close()
  dir.remove()
})

const open = async (): Promise<{ socket: Socket; ended: Promise<string> }> => {
  const socket = connect(port, "127.0.0.1")
  let received = ""
  socket.on("data", (chunk) => (received += chunk.toString()))
  socket.on("error", () => {})
  const ended = new Promise<string>((resolve) => socket.once("close", () => resolve(received)))
  await new Promise((resolve) => socket.once("connect", resolve))
  return { socket, ended }
}

it("clients that trickle their headers are cut off, and past the cap a new connection is closed at once", async () => {
  const slow = await Promise.all(Array.from({ length: 8 }, () => open()))
  for (const { socket } of slow) socket.write("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n") // never ends its headers
  await new Promise((resolve) => setTimeout(resolve, 100))
  const extra = await open()
  expect(await extra.ended).toBe("") // closed without a word: the cap
  // within the headers timeout (checked every half second here), each slow client is answered 408 and closed
  const answers = await Promise.all(slow.map(({ ended }) => ended))
  for (const answer of answers) expect(answer).toMatch(/^HTTP\/1\.1 408/)
  expect((await fetch(`${server.url}/healthz`)).status).toBe(200)
}, 20_000)

it("a body that trickles past the request timeout is cut off", async () => {
  const { socket, ended } = await open()
  socket.write(
    `POST /v1/execute HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{"code":`,
  )
  const answer = await ended
  expect(answer === "" || /^HTTP\/1\.1 408/.test(answer)).toBe(true)
}, 20_000)

it("a body abandoned halfway is one info line, not an internal error", async () => {
  const before = log.lines.length
  for (const path of ["/v1/execute", "/v1/sources"]) {
    const { socket, ended } = await open()
    socket.write(
      `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\ncontent-type: application/json\r\ncontent-length: 1000\r\n\r\n{"code":`,
    )
    await new Promise((resolve) => setTimeout(resolve, 100))
    socket.destroy()
    await ended
  }
  await new Promise((resolve) => setTimeout(resolve, 300))
  const lines = log.lines.slice(before)
  expect(lines.filter((line) => line.level === "error")).toEqual([])
  const aborted = ["info", "request aborted by the client before its body arrived"]
  // and each request's own line in the request log, with the code of the answer nobody reads
  const request = ["info", "request", 400, "client_closed_request"]
  expect(
    lines.map((line) =>
      line.message === "request"
        ? [line.level, line.message, line.details?.status, line.details?.errorCode]
        : [line.level, line.message],
    ),
  ).toEqual([aborted, request, aborted, request])
})
