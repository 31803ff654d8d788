/**
 * Downloads of stored output (GET /v1/executions/:id/output, no query; issue 30 §3): sent a part at a time, byte for
 * byte with the headers they always had, on SQLite and on Postgres; and a key has a bounded number in progress.
 * Real servers, real sockets on loopback.
 */
import { connect } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { slowReader } from "../support/abuse-clients.js"
import { startTestServer } from "../support/helpers.js"
import type { DatabaseKind, TestServer } from "../support/helpers.js"

/** one GET on a socket of its own: the head's lines as sent (Date aside), and the body's bytes */
const rawGet = (url: string, path: string): Promise<{ head: string[]; body: Buffer }> =>
  new Promise((resolve, reject) => {
    const { hostname, port } = new URL(url)
    const socket = connect(Number(port), hostname)
    const chunks: Buffer[] = []
    socket.on("data", (chunk: Buffer) => chunks.push(chunk))
    socket.once("error", reject)
    socket.once("connect", () =>
      socket.write(`GET ${path} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nConnection: close\r\n\r\n`),
    )
    socket.once("close", () => {
      const all = Buffer.concat(chunks)
      const end = all.indexOf("\r\n\r\n")
      const head = all
        .subarray(0, end)
        .toString("latin1")
        .split("\r\n")
        .filter((line) => !/^date:/i.test(line))
      resolve({ head, body: all.subarray(end + 4) })
    })
  })

/** the head's header names, lowercased and sorted, and its values by name */
const headersOf = (head: string[]) => {
  const fields = head.slice(1).map((line) => {
    const colon = line.indexOf(":")
    return [line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim()] as const
  })
  return { names: fields.map(([name]) => name).sort(), values: Object.fromEntries(fields) }
}

describe.each(["sqlite", "postgres"] as DatabaseKind[])("on %s", (database) => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer({ database })
  })
  afterAll(() => server?.stop())

  it("a stored output of megabytes is sent byte for byte, with the headers a small one is sent with", async () => {
    const piece = "ascii é € 😀 \uFFFD 𝄞 line\n"
    const big = await server.execute(`return ${JSON.stringify(piece)}.repeat(100000)`)
    const small = await server.execute(`return "small é"`)
    const expected = Buffer.from(piece.repeat(100_000), "utf8")
    const sent = await rawGet(server.url, `/v1/executions/${big.executionId}/output`)
    const smallSent = await rawGet(server.url, `/v1/executions/${small.executionId}/output`)
    expect(sent.head[0]).toBe("HTTP/1.1 200 OK")
    expect(sent.body.equals(expected)).toBe(true)
    const headers = headersOf(sent.head)
    expect(headers.names).toEqual(headersOf(smallSent.head).names)
    expect(headers.values["content-type"]).toBe("text/plain; charset=utf-8")
    expect(headers.values["content-length"]).toBe(String(expected.length))
    expect(smallSent.body.equals(Buffer.from("small é", "utf8"))).toBe(true)
  }, 60_000)
})

describe("downloads in progress per key", () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer({ requireKey: true, maxDownloadsPerKey: 2, limits: { maxResultBytes: 32 << 20 } })
  })
  afterAll(() => server?.stop())

  it("a key past its downloads in progress is answered 429 naming the bound; other keys are served; a closed one frees its place", async () => {
    const alice = await server.host.keys.create("alice", ["execute"])
    const bob = await server.host.keys.create("bob", ["execute"])
    const as = (key: { key: string }) => ({ authorization: `Bearer ${key.key}` })
    // A download is in progress until its stream has read the last part. A loopback connection whose client stopped
    // reading takes about 3.75 MiB into the kernel's buffers here (tcp_wmem's maximum is 4 MiB; hosts tuned for
    // throughput allow 16): a 4 MiB output was sometimes read whole, and its download over, before the third request.
    const outputBytes = 24 << 20
    const answer = await fetch(`${server.url}/v1/execute`, {
      method: "POST",
      headers: { ...as(alice), "content-type": "application/json" },
      body: JSON.stringify({ code: `return "x".repeat(${outputBytes})` }),
    })
    const stored = (await answer.json()) as { executionId?: string; stored?: boolean }
    expect([answer.status, stored.stored, typeof stored.executionId]).toEqual([200, true, "string"])
    const path = `/v1/executions/${stored.executionId}/output`
    // two downloads left unread: each is in progress until its client reads it or goes away
    const held = [await slowReader(server.url, path, as(alice)), await slowReader(server.url, path, as(alice))]
    expect(held.map(({ answer }) => answer.status)).toEqual([200, 200])
    const past = await slowReader(server.url, path, as(alice))
    expect(past.answer.status).toBe(429)
    expect(past.answer.body.error.code).toBe("too_many_downloads")
    expect(past.answer.body.error.message).toBe(
      `key ${alice.id} already has 2 downloads of stored output in progress, the most one key may have at once; ` +
        "try again when one has finished, or read the output a page at a time (offset, limit) or search it (grep)",
    )
    // a page of lines and a search are no downloads
    const page = await fetch(`${server.url}${path}?limit=1`, { headers: as(alice) })
    expect(page.status).toBe(200)
    // another key is served: an admin's (an execute key reads only its own executions: bob is told there is none)
    const admin = await server.host.keys.create("admin", ["admin"])
    const other = await slowReader(server.url, path, as(admin))
    expect(other.answer.status).toBe(200)
    expect((await slowReader(server.url, path, as(bob))).answer.status).toBe(404)
    held[0]!.socket.destroy()
    await new Promise((resolve) => setTimeout(resolve, 200))
    const again = await fetch(`${server.url}${path}`, { headers: as(alice) })
    expect(again.status).toBe(200)
    expect((await again.arrayBuffer()).byteLength).toBe(outputBytes)
    for (const { socket } of [...held, past, other]) socket.destroy()
  }, 60_000)

  it("a HEAD of a stored output is answered with a GET's headers and takes no download", async () => {
    const carol = await server.host.keys.create("carol", ["execute"])
    const as = { authorization: `Bearer ${carol.key}` }
    const outputBytes = 1 << 20
    const answer = await fetch(`${server.url}/v1/execute`, {
      method: "POST",
      headers: { ...as, "content-type": "application/json" },
      body: JSON.stringify({ code: `return "y".repeat(${outputBytes})` }),
    })
    const { executionId } = (await answer.json()) as { executionId: string }
    const url = `${server.url}/v1/executions/${executionId}/output`
    // more HEADs than the key's two downloads: a HEAD has no body to send, so none of them holds a place
    for (let index = 0; index < 5; index++) {
      const head = await fetch(url, { method: "HEAD", headers: as })
      expect([head.status, head.headers.get("content-length"), head.headers.get("content-type")]).toEqual([
        200,
        String(outputBytes),
        "text/plain; charset=utf-8",
      ])
    }
    const got = await fetch(url, { headers: as })
    expect(got.status).toBe(200)
    expect((await got.arrayBuffer()).byteLength).toBe(outputBytes)
  }, 60_000)
})
