/**
 * Clients that misbehave on purpose, for the abuse cases (abuse-cases.ts): raw sockets on loopback, so what they
 * send, and what they leave unread, is exactly what is written here.
 */
import { connect } from "node:net"
import type { Socket } from "node:net"
import type { Answer } from "./process-harness.js"

/** a socket that sends nothing, or half a request's headers (a full request line, then one header, then nothing) */
export type Silent = "nothing" | "partial headers"

/**
 * `count` sockets that each open and then stay silent, each opened again as soon as the server closes it, until
 * `stop`: one client holding as many connections as it can. `closed` counts the server's closes.
 */
export const silentFlood = (url: string, count: number) => {
  const { hostname, port } = new URL(url)
  const open = new Set<Socket>()
  let running = true
  let closed = 0
  const one = (kind: Silent) => {
    if (!running) return
    const socket = connect(Number(port), hostname)
    open.add(socket)
    socket.on("error", () => {})
    socket.once("connect", () => {
      if (kind === "partial headers") socket.write(`GET /healthz HTTP/1.1\r\nHost: ${hostname}:${port}\r\n`)
    })
    socket.once("close", () => {
      open.delete(socket)
      closed++
      one(kind)
    })
  }
  for (let i = 0; i < count; i++) one(i % 2 === 0 ? "nothing" : "partial headers")
  return {
    /** the server's closes so far */
    closed: () => closed,
    stop() {
      running = false
      for (const socket of open) socket.destroy()
    },
  }
}

/**
 * GET `path` on a socket of its own and read the answer's head; a 200's body is left unread (the socket is paused
 * as soon as the head is in, so the server can send only what the kernel's buffers take), any other answer is
 * read whole. The answer (a 200's body is null) and the socket, to close when done.
 */
export const slowReader = (
  url: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<{ answer: Answer; socket: Socket }> =>
  new Promise((resolve, reject) => {
    const { hostname, port } = new URL(url)
    const socket = connect(Number(port), hostname)
    let received = Buffer.alloc(0)
    let head: { status: number; length: number; bodyStart: number } | undefined
    socket.once("error", reject)
    const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`)
    socket.once("connect", () =>
      socket.write(`GET ${path} HTTP/1.1\r\nHost: ${hostname}:${port}\r\n${lines.join("")}\r\n`),
    )
    socket.on("data", (chunk: Buffer) => {
      received = Buffer.concat([received, chunk])
      if (!head) {
        const end = received.indexOf("\r\n\r\n")
        if (end < 0) return
        const text = received.subarray(0, end).toString("latin1")
        const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1])
        const length = Number(/\r\ncontent-length: *(\d+)/i.exec(text)?.[1] ?? Number.NaN)
        head = { status, length, bodyStart: end + 4 }
        if (status === 200) {
          socket.pause()
          socket.removeAllListeners("data")
          received = Buffer.alloc(0)
          return resolve({ answer: { status, body: null }, socket })
        }
      }
      if (received.length - head.bodyStart < head.length) return
      const text = received.subarray(head.bodyStart, head.bodyStart + head.length).toString()
      let body: unknown = text
      try {
        body = JSON.parse(text)
      } catch {}
      resolve({ answer: { status: head.status, body }, socket })
    })
  })
