/**
 * What one client may hold of the server's connections, so that a client that opens as many connections as the
 * server allows, sends half a request's headers on each and opens each again as it is closed cannot shut every
 * other client out, the orchestrator's probe among them. The rules:
 *
 * - A connection is waiting (no request yet, or its headers not all in, or kept alive between requests) or in use
 *   (a request's headers are in and its answer is not finished). At `maxConnections`, a new connection takes the
 *   place of the one that has waited longest, which is closed; only when every connection is in use is the new one
 *   closed at once.
 * - One client (./client-address.ts) may have `maxConnectionsPerAddress` connections in use at once. A request past
 *   that is answered 429 `too_many_connections` and its connection closed, but for GET and HEAD of /healthz and
 *   /readyz, which are always answered.
 * - A connection that has not sent a whole request line within `requestLineTimeoutMs` is answered 408 and closed;
 *   one that has is given Node's `headersTimeout` for the rest of its headers.
 *
 * Why waiting connections are bounded all together and not per client: a client refused a connection opens another
 * at once, so a bound it is over turns into a loop as fast as the machine allows, and a probe from the same address
 * (a load balancer's health checks come from the addresses its traffic comes from; so does everything behind one NAT
 * or proxy) would be refused within it: nothing tells a probe from the rest before its request is read. Bounded
 * together, oldest out first, a new connection always gets in, and its request is read long before a thousand newer
 * ones could push it out.
 */
import type { IncomingMessage, Server, ServerResponse } from "node:http"
import type { Socket } from "node:net"
import { PROBE_PATHS, errorOf } from "@switchboard/api"
import { clientOf } from "./client-address.js"

export interface ConnectionBounds {
  /** open connections at most (default 1,000) */
  maxConnections: number
  /** connections one client address may have in use at once (default 100) */
  maxConnectionsPerAddress: number
  /** the time a new connection has to send its whole request line (default 3 s) */
  requestLineTimeoutMs: number
}

export const DEFAULT_CONNECTION_BOUNDS: ConnectionBounds = {
  maxConnections: 1_000,
  maxConnectionsPerAddress: 100,
  requestLineTimeoutMs: 3_000,
}

interface Connection {
  client: string
  inUse: boolean
  /** stops the request line's clock; undefined once the line is in */
  stopClock: (() => void) | undefined
}

const LF = 10
const CR = 13

/** what Node answers a client past its headers timeout */
const REQUEST_TIMEOUT = "HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n"

const isProbe = (request: IncomingMessage) =>
  (request.method === "GET" || request.method === "HEAD") && PROBE_PATHS.has((request.url ?? "").split("?", 1)[0]!)

/**
 * Watches the first bytes of a connection for the end of its request line (leading empty lines, which a server
 * ignores, do not count), and closes it with a 408 when `ms` pass first. Node's parser reads the socket itself and
 * tells nothing before the headers are complete, so the bytes are looked at here (a `data` listener makes the socket
 * hand them to the parser through JavaScript, for its whole life; no difference in cost showed).
 */
const watchRequestLine = (socket: Socket, ms: number): (() => void) => {
  let started = false
  const onData = (chunk: Buffer) => {
    for (let from = 0; from <= chunk.length; ) {
      const lf = chunk.indexOf(LF, from)
      const end = lf < 0 ? chunk.length : lf
      for (let i = from; i < end && !started; i++) started = chunk[i] !== CR
      if (lf < 0) return
      if (started) return stop()
      from = lf + 1
    }
  }
  const timer = setTimeout(() => {
    socket.off("data", onData)
    socket.write(REQUEST_TIMEOUT)
    socket.destroySoon()
  }, ms)
  const stop = () => {
    clearTimeout(timer)
    socket.off("data", onData)
  }
  socket.on("data", onData)
  return stop
}

/**
 * Puts `server`'s connections under `bounds`. It takes the place of the server's own `connection` listener (Node's
 * HTTP parser set-up) and `request` listener (the app), so a refused connection never reaches the parser and a
 * refused request never reaches the app; call it before the server accepts its first connection.
 */
export const guardConnections = (server: Server, bounds: ConnectionBounds) => {
  const [parse, ...otherConnectionListeners] = server.listeners("connection") as ((socket: Socket) => void)[]
  const [serve, ...otherRequestListeners] = server.listeners("request") as ((
    request: IncomingMessage,
    response: ServerResponse,
  ) => void)[]
  if (!parse || !serve || otherConnectionListeners.length > 0 || otherRequestListeners.length > 0)
    throw new Error("guardConnections needs a server with one connection listener (Node's) and one request listener")
  server.removeListener("connection", parse)
  server.removeListener("request", serve)

  const open = new Map<Socket, Connection>()
  // a Set keeps insertion order: the first is the connection that has waited longest
  const waiting = new Set<Socket>()
  const inUseBy = new Map<string, number>()

  const forget = (socket: Socket) => {
    const connection = open.get(socket)
    if (!connection) return
    connection.stopClock?.()
    open.delete(socket)
    waiting.delete(socket)
  }

  const tooMany = (response: ServerResponse, client: string) => {
    const body = JSON.stringify(
      errorOf(
        "too_many_connections",
        `this client (${client}) already has ${bounds.maxConnectionsPerAddress} requests in progress, the most one address ` +
          "may have at once (the server's --max-connections-per-address); try again when one has finished",
      ),
    )
    response.writeHead(429, {
      "content-type": "application/json",
      "content-length": Buffer.byteLength(body),
      "retry-after": "1",
      connection: "close",
    })
    response.end(body)
  }

  server.on("connection", (socket: Socket) => {
    if (open.size >= bounds.maxConnections) {
      const oldest = waiting.values().next()
      if (oldest.done) return void socket.destroy()
      forget(oldest.value)
      oldest.value.destroy()
    }
    const connection: Connection = { client: clientOf(socket.remoteAddress), inUse: false, stopClock: undefined }
    open.set(socket, connection)
    waiting.add(socket)
    socket.once("close", () => forget(socket))
    parse.call(server, socket)
    connection.stopClock = watchRequestLine(socket, bounds.requestLineTimeoutMs)
  })

  server.on("request", (request: IncomingMessage, response: ServerResponse) => {
    const socket = request.socket
    const connection = open.get(socket)
    if (!connection) return serve(request, response)
    connection.stopClock?.()
    connection.stopClock = undefined
    waiting.delete(socket)
    response.once("close", () => {
      if (connection.inUse) {
        connection.inUse = false
        const left = (inUseBy.get(connection.client) ?? 1) - 1
        if (left === 0) inUseBy.delete(connection.client)
        else inUseBy.set(connection.client, left)
      }
      if (open.has(socket) && !socket.destroyed) waiting.add(socket)
    })
    const inUse = inUseBy.get(connection.client) ?? 0
    if (inUse >= bounds.maxConnectionsPerAddress) {
      if (isProbe(request)) return serve(request, response)
      return tooMany(response, connection.client)
    }
    connection.inUse = true
    inUseBy.set(connection.client, inUse + 1)
    serve(request, response)
  })
}
