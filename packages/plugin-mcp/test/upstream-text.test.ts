/**
 * ARCHITECTURE.md: safety: an http source's URL is fetched by this server, so an error about it carries no more of the
 * upstream's response than a short, fixed-length, sanitized excerpt: a source pointed at an internal service
 * must not read that service back through its error messages.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startSwitchableHttpServer } from "@switchboard/fixtures"
import type { SwitchableHttpServer } from "@switchboard/fixtures"
import type { SourceHandle, SourcePlugin } from "@switchboard/core"
import { createMcpPlugin } from "../src/node/index.js"
import { HTTP_EXCERPT_CHARS, excerpt, upstreamMessage } from "../src/upstream-text.js"

const SECRET = "INTERNAL-SECRET-42"
/** A long internal page, the secret well past any excerpt */
const INTERNAL_PAGE = `<html>${"x".repeat(300)} ${SECRET} ${"y".repeat(300)}</html>`

describe("excerpt", () => {
  it("keeps short text as it is", () => {
    expect(excerpt("HTTP 500: Internal Server Error")).toBe("HTTP 500: Internal Server Error")
  })

  it("cuts at a fixed length and says so", () => {
    const cut = excerpt("a".repeat(1000))
    expect(cut).toBe(`${"a".repeat(HTTP_EXCERPT_CHARS)}… (cut to ${HTTP_EXCERPT_CHARS} characters)`)
  })

  it("removes control, bidi and zero-width characters, and makes one line", () => {
    expect(excerpt("a\u0000b\r\nc\u001b[31md\u202ee\u200bf\u0085g\tend")).toBe("a b c [31md e f g end")
  })

  it("leaves no half of a surrogate pair at the cut", () => {
    const cut = excerpt(`${"a".repeat(HTTP_EXCERPT_CHARS - 1)}😀${"b".repeat(10)}`)
    expect(cut.startsWith(`${"a".repeat(HTTP_EXCERPT_CHARS - 1)}…`)).toBe(true)
  })

  it("scrubs the source's secrets before cutting, and bounds a stdio server's text without cutting it short", () => {
    const http = {
      transport: { type: "http" as const, url: "http://h/mcp", headers: { authorization: "Bearer tok-abcdef" } },
    }
    expect(upstreamMessage(http, `denied for tok-abcdef ${"z".repeat(500)}`)).toMatch(
      /^denied for <redacted> z+… \(cut to 120 characters\)$/,
    )
    const stdio = { transport: { type: "stdio" as const, command: "x", args: [], env: {} } }
    expect(upstreamMessage(stdio, "line one\nline two")).toBe("line one\nline two")
    expect(upstreamMessage(stdio, "s".repeat(5000)).length).toBeLessThan(2100)
  })
})

describe("an http upstream that answers with its own page", () => {
  let plugin: SourcePlugin
  let upstream: SwitchableHttpServer
  let handle: SourceHandle
  beforeAll(async () => {
    plugin = await createMcpPlugin({ connectTimeoutMs: 10_000 })
    upstream = await startSwitchableHttpServer()
    handle = {
      id: "internal",
      namespace: "internal",
      kind: "mcp",
      config: { transport: { type: "http", url: upstream.url, headers: {} } },
    }
  })
  afterAll(async () => {
    await plugin?.close()
    await upstream?.close()
  })

  const expectExcerptOnly = (message: string) => {
    expect(message).not.toContain(SECRET)
    expect(message).not.toContain("y".repeat(10))
    expect(message).toContain(`cut to ${HTTP_EXCERPT_CHARS} characters`)
    expect(message.length).toBeLessThan(HTTP_EXCERPT_CHARS + 100)
  }

  it("a 500 while connecting: the discovery error names the status and an excerpt, not the page", async () => {
    upstream.mode = { kind: "error", status: 500, body: INTERNAL_PAGE }
    const discovered = await plugin.discover(handle)
    expect(discovered.ok).toBe(false)
    if (discovered.ok) return
    expect(discovered.message).toMatch(/^could not connect: HTTP 500: <html>x+/)
    expectExcerptOnly(discovered.message)
    await plugin.release(handle.id)
  })

  it("a 200 page that is not JSON-RPC: the same", async () => {
    upstream.mode = { kind: "error", status: 200, body: INTERNAL_PAGE, contentType: "application/json" }
    const discovered = await plugin.discover(handle)
    expect(discovered.ok).toBe(false)
    if (!discovered.ok) expect(discovered.message).not.toContain(SECRET)
    await plugin.release(handle.id)
  })

  it("a call to a source that starts answering 500: the call's error carries an excerpt only", async () => {
    upstream.mode = { kind: "mcp" }
    expect((await plugin.discover(handle)).ok).toBe(true)
    upstream.mode = { kind: "error", status: 500, body: INTERNAL_PAGE }
    const called = await plugin.invoke(handle, "ping", {}, { deadline: Date.now() + 10_000 })
    expect(called).toMatchObject({ ok: false, code: "upstream_unavailable" })
    if (!called.ok) expectExcerptOnly(called.message)
    const listed = await plugin.discover(handle)
    expect(listed.ok).toBe(false)
    if (!listed.ok) {
      expect(listed.message).toMatch(/^tools\/list failed: HTTP 500/)
      expectExcerptOnly(listed.message)
    }
  })
})
