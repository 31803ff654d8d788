/**
 * The Node egress guard. Every request here stays on loopback. A "public" address cannot be reached from a
 * test, so where a hop must be allowed, the test injects a resolver and a classifier that call 127.0.0.2 public
 * (a fixture listens there) and leave everything else to the real classifier: 127.0.0.1 stays loopback.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest"
import { startSwitchableHttpServer } from "@switchboard/fixtures"
import type { SwitchableHttpServer } from "@switchboard/fixtures"
import { classifyAddress } from "@switchboard/core"
import { createGuardedFetch } from "../src/node/index.js"
import type { GuardedFetch, ResolvedAddress } from "../src/node/index.js"
import { findRefusal } from "../src/refusal.js"

const PRETEND_PUBLIC = "127.0.0.2"
const classify = (address: string) => (address === PRETEND_PUBLIC ? "public" : classifyAddress(address))
const names: Record<string, ResolvedAddress[]> = {
  "public.test": [{ address: PRETEND_PUBLIC, family: 4 }],
  "rebound.test": [{ address: "127.0.0.1", family: 4 }],
  "mixed.test": [
    { address: PRETEND_PUBLIC, family: 4 },
    { address: "10.0.0.7", family: 4 },
  ],
}
const resolve = async (hostname: string) =>
  names[hostname] ??
  Promise.reject(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" }))

/** What a guarded fetch threw: the refusal's code, wherever fetch wrapped it. */
const refusalOf = async (request: Promise<Response>) => {
  try {
    const response = await request
    return { status: response.status }
  } catch (cause) {
    const refusal = findRefusal(cause)
    return refusal ? { code: refusal.code, message: refusal.message } : { error: String(cause) }
  }
}

describe("with the real resolver and classifier", () => {
  let internal: SwitchableHttpServer
  let guarded: GuardedFetch
  beforeAll(async () => {
    internal = await startSwitchableHttpServer({ mode: { kind: "error", status: 200, body: "internal" } })
    guarded = createGuardedFetch()
  })
  afterAll(async () => {
    await guarded?.close()
    await internal?.close()
  })
  afterEach(() => expect(internal.hits).toBe(0))

  it.each([
    ["127.0.0.1", (port: number) => `http://127.0.0.1:${port}/mcp`],
    ["2130706433 (decimal)", (port: number) => `http://2130706433:${port}/mcp`],
    ["0x7f.1 (hex)", (port: number) => `http://0x7f.1:${port}/mcp`],
    ["[::ffff:127.0.0.1]", (port: number) => `http://[::ffff:127.0.0.1]:${port}/mcp`],
    ["[::1]", (port: number) => `http://[::1]:${port}/mcp`],
    ["localhost (a name, resolved by the OS)", (port: number) => `http://localhost:${port}/mcp`],
    ["localhost. (trailing dot)", (port: number) => `http://localhost.:${port}/mcp`],
    ["api.localhost (RFC 6761: loopback whatever DNS says)", (port: number) => `http://api.localhost:${port}/mcp`],
    ["169.254.169.254 (metadata)", () => "http://169.254.169.254/latest/meta-data/"],
    ["10.0.0.1", () => "http://10.0.0.1/"],
  ])("refuses %s before any byte is sent", async (_, url) => {
    const refused = await refusalOf(guarded(url(internal.port), { method: "POST", body: "{}" }))
    expect(refused).toMatchObject({ code: "private_address" })
    expect((refused as { message: string }).message).toMatch(/--allow-private-sources/)
  })

  it("the message names the host and the kind of address, never what a name resolved to", async () => {
    const resolving = createGuardedFetch({ resolve: async () => [{ address: "10.0.0.7", family: 4 }] })
    try {
      const refused = await refusalOf(resolving("http://db.internal.test/"))
      expect((refused as { message: string }).message).toMatch(/^"db.internal.test" is a private address/)
      expect((refused as { message: string }).message).not.toContain("10.0.0.7")
    } finally {
      await resolving.close()
    }
  })
})

describe("with a simulated public address (127.0.0.2, injected)", () => {
  let pub: SwitchableHttpServer
  let internal: SwitchableHttpServer
  let guarded: GuardedFetch
  beforeAll(async () => {
    pub = await startSwitchableHttpServer({ host: PRETEND_PUBLIC })
    internal = await startSwitchableHttpServer({ mode: { kind: "error", status: 200, body: "internal" } })
    guarded = createGuardedFetch({ resolve, classify })
  })
  afterAll(async () => {
    await guarded?.close()
    await pub?.close()
    await internal?.close()
  })

  it("allows a public name, connecting to the address it vetted", async () => {
    pub.mode = { kind: "mcp" }
    const response = await guarded(`http://public.test:${pub.port}/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    })
    expect(response.status).toBe(200)
    expect(await response.json()).toMatchObject({ result: { tools: [{ name: "ping" }] } })
  })

  it("refuses a name that resolves to loopback, and one with any private address among its answers", async () => {
    expect(await refusalOf(guarded(`http://rebound.test:${internal.port}/mcp`))).toMatchObject({
      code: "private_address",
    })
    expect(await refusalOf(guarded(`http://mixed.test:${pub.port}/mcp`))).toMatchObject({ code: "private_address" })
    expect(internal.hits).toBe(0)
  })

  it.each([
    ["an IP literal", (port: number) => `http://127.0.0.1:${port}/mcp`],
    ["a name that resolves to loopback", (port: number) => `http://rebound.test:${port}/mcp`],
  ])("refuses a public host that redirects to %s, on every redirect", async (_, target) => {
    internal.hits = 0
    for (const status of [302, 307, 308]) {
      pub.mode = { kind: "redirect", status, location: target(internal.port) }
      expect(
        await refusalOf(guarded(`http://public.test:${pub.port}/mcp`, { method: "POST", body: "{}" })),
      ).toMatchObject({ code: "private_address" })
    }
    // a second hop: public -> public -> loopback
    pub.mode = { kind: "redirect", status: 307, location: `http://public.test:${pub.port}/again` }
    const looping = await refusalOf(guarded(`http://public.test:${pub.port}/mcp`))
    expect(looping).toMatchObject({ error: expect.stringMatching(/redirected more than 5 times/) })
    expect(internal.hits).toBe(0)
  })

  it("a caller that follows redirects itself (redirect: manual, as the MCP SDK does) gets the hop back, and its next request is checked", async () => {
    pub.mode = { kind: "redirect", status: 307, location: `http://127.0.0.1:${internal.port}/mcp` }
    const hop = await guarded(`http://public.test:${pub.port}/mcp`, { redirect: "manual" })
    expect(hop.status).toBe(307)
    const next = new URL(hop.headers.get("location")!, `http://public.test:${pub.port}/mcp`)
    expect(await refusalOf(guarded(next, { redirect: "manual" }))).toMatchObject({ code: "private_address" })
    expect(internal.hits).toBe(0)
  })
})
