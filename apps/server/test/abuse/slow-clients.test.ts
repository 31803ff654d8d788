/**
 * Slow and vanishing clients (issue 14 §6, issue 30 §2): connections are capped, overall and per client address; a
 * client that trickles its headers or body is cut off, and one that sends no request line sooner; a body abandoned
 * halfway is one log line, never an internal error with a stack. Real sockets on loopback against real servers
 * (127.0.0.2 and 127.0.0.3 are loopback addresses of their own: other clients).
 */
import { connect } from "node:net"
import type { Socket } from "node:net"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startServer } from "../../src/serving/serve.js"
import type { RunningServer } from "../../src/serving/serve.js"
import { memoryLogger, tempDir } from "../support/helpers.js"

const log = memoryLogger()
const dir = tempDir()
let server: RunningServer
let port: number
/** the second server: three requests in progress per client, six connections in all, 300 ms for a request line */
let bounded: RunningServer
let boundedPort: number
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
  bounded = await startServer({
    db: join(dir.dir, "bounded.db"),
    port: 0,
    logger: memoryLogger().logger,
    runtime: "in-thread",
    maxConnections: 6,
    maxConnectionsPerAddress: 3,
    requestLineTimeoutMs: 300,
    headersTimeoutMs: 5_000,
    requestTimeoutMs: 10_000,
  })
  boundedPort = Number(new URL(bounded.url).port)
})
afterAll(async () => {
  await server?.close()
  await bounded?.close()
  dir.remove()
})

interface Client {
  socket: Socket
  /** everything the server sent, once it closed the connection */
  ended: Promise<string>
  /** the next answer's head and body, as text, once that much has come */
  answer(): Promise<string>
}

const open = async (to = port, localAddress = "127.0.0.1"): Promise<Client> => {
  const socket = connect({ port: to, host: "127.0.0.1", localAddress })
  let received = ""
  socket.on("data", (chunk) => (received += chunk.toString()))
  socket.on("error", () => {})
  const ended = new Promise<string>((resolve) => socket.once("close", () => resolve(received)))
  const answer = async () => {
    for (;;) {
      const head = /\r\n\r\n/.exec(received)
      const length = Number(/\r\ncontent-length: *(\d+)/i.exec(received)?.[1] ?? 0)
      if (head && received.length >= head.index + 4 + length) {
        const text = received
        received = ""
        return text
      }
      if (socket.destroyed) return received
      await new Promise((resolve) => setTimeout(resolve, 10))
    }
  }
  await new Promise((resolve) => socket.once("connect", resolve))
  return { socket, ended, answer }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const request = (path: string, to: number) => `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${to}\r\n\r\n`
/** a request whose headers are in and whose body never finishes: in progress until the request timeout */
const unfinished = (to: number) =>
  `POST /v1/execute HTTP/1.1\r\nHost: 127.0.0.1:${to}\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{"code":`

it("clients that trickle their headers are cut off, and past the cap the one that has waited longest is closed for a new one", async () => {
  const slow = []
  for (let i = 0; i < 8; i++) {
    const client = await open()
    client.socket.write("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n") // never ends its headers
    slow.push(client)
    await sleep(20)
  }
  const extra = await open()
  expect(await slow[0]!.ended).toBe("") // closed without a word: the cap
  extra.socket.write(request("/healthz", port))
  expect(await extra.answer()).toMatch(/^HTTP\/1\.1 200/)
  // within the headers timeout (checked every half second here), each other slow client is answered 408 and closed
  const answers = await Promise.all(slow.slice(1).map(({ ended }) => ended))
  for (const answer of answers) expect(answer).toMatch(/^HTTP\/1\.1 408/)
  extra.socket.destroy()
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

describe("bounds per client address", () => {
  it("a client's request past its bound is refused naming it, its probes are answered, and other clients are served", async () => {
    const busy = await Promise.all(Array.from({ length: 3 }, () => open(boundedPort)))
    for (const { socket } of busy) socket.write(unfinished(boundedPort))
    await sleep(100)
    const past = await open(boundedPort)
    past.socket.write(request("/v1/tools?limit=1", boundedPort))
    const refused = await past.answer()
    expect(refused).toMatch(/^HTTP\/1\.1 429/)
    expect(refused).toMatch(/\r\nretry-after: 1\r\n/i)
    const body = JSON.parse(refused.slice(refused.indexOf("\r\n\r\n") + 4))
    expect(body.error.code).toBe("too_many_connections")
    expect(body.error.message).toContain("already has 3 requests in progress")
    expect(body.error.message).toContain("--max-connections-per-address")
    await past.ended // and its connection is closed after it
    for (const path of ["/healthz", "/readyz"]) {
      const probe = await open(boundedPort)
      probe.socket.write(request(path, boundedPort))
      expect(await probe.answer()).toMatch(/^HTTP\/1\.1 200/)
      probe.socket.destroy()
    }
    const other = await open(boundedPort, "127.0.0.2")
    other.socket.write(request("/v1/tools?limit=1", boundedPort))
    expect(await other.answer()).toMatch(/^HTTP\/1\.1 200/)
    other.socket.destroy()
    // one request finished (its client gone): the next is served
    busy[0]!.socket.destroy()
    await busy[0]!.ended
    await sleep(50)
    const next = await open(boundedPort)
    next.socket.write(request("/v1/tools?limit=1", boundedPort))
    expect(await next.answer()).toMatch(/^HTTP\/1\.1 200/)
    for (const { socket } of [...busy, next]) socket.destroy()
    await sleep(50)
  })

  it("when every connection has a request in progress, a new connection is closed at once", async () => {
    const busy = [
      ...(await Promise.all(Array.from({ length: 3 }, () => open(boundedPort, "127.0.0.1")))),
      ...(await Promise.all(Array.from({ length: 3 }, () => open(boundedPort, "127.0.0.2")))),
    ]
    for (const { socket } of busy) socket.write(unfinished(boundedPort))
    await sleep(100)
    const extra = await open(boundedPort, "127.0.0.3")
    expect(await extra.ended).toBe("")
    for (const { socket } of busy) socket.destroy()
    await Promise.all(busy.map(({ ended }) => ended))
    await sleep(50)
    const after = await open(boundedPort, "127.0.0.3")
    after.socket.write(request("/healthz", boundedPort))
    expect(await after.answer()).toMatch(/^HTTP\/1\.1 200/)
    after.socket.destroy()
  })

  it("a connection that sends no whole request line in time is answered 408; one that sent its line waits for its headers", async () => {
    const silent = await open(boundedPort)
    const halfLine = await open(boundedPort)
    halfLine.socket.write("GET /heal")
    const emptyLines = await open(boundedPort)
    emptyLines.socket.write("\r\n\r\n")
    const line = await open(boundedPort)
    line.socket.write("GET /healthz HTTP/1.1\r\n")
    for (const client of [silent, halfLine, emptyLines]) expect(await client.ended).toMatch(/^HTTP\/1\.1 408/)
    // the headers timeout is 5 s: the connection that sent its request line is still open, and can finish
    expect(line.socket.destroyed).toBe(false)
    line.socket.write(`Host: 127.0.0.1:${boundedPort}\r\n\r\n`)
    expect(await line.answer()).toMatch(/^HTTP\/1\.1 200/)
    line.socket.destroy()
  })
})
