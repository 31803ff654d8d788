/**
 * OAuth's requests go through the same egress guard as http sources: on a server that refuses private addresses, a
 * public source whose metadata names an authorization server at a private address is refused as SSRF (403
 * `private_address`), and nothing is sent there. The source is on loopback here, so the guard is given a classifier
 * that calls 127.0.0.1 public (as the guard's own tests do) and leaves every other address to the real one; the
 * metadata names 127.0.0.2, which the real classifier calls loopback.
 */
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, beforeAll, expect, it } from "vitest"
import { startSdkAuthServer } from "@switchboard/fixtures"
import type { SdkAuthServer } from "@switchboard/fixtures"
import { classifyAddress } from "@switchboard/plugin-mcp"
import { startTestServer } from "../support/helpers.js"
import type { TestServer } from "../support/helpers.js"

let upstream: SdkAuthServer
let server: TestServer
let hits = 0
let trap: ReturnType<typeof createServer>

beforeAll(async () => {
  // what the metadata points at: a server on 127.0.0.2 that counts every request it gets
  trap = createServer((_req, res) => {
    hits++
    res.end("{}")
  })
  await new Promise<void>((resolve) => trap.listen(0, "127.0.0.2", resolve))
  const port = (trap.address() as AddressInfo).port
  upstream = await startSdkAuthServer({ authorizationServer: `http://127.0.0.2:${port}/` })
  server = await startTestServer({
    refusePrivateSources: { classify: (address) => (address === "127.0.0.1" ? "public" : classifyAddress(address)) },
  })
})
afterAll(async () => {
  await server?.stop()
  await upstream?.close()
  trap?.close()
})

it("refuses metadata that points a public source's login at a private address, and sends nothing there", async () => {
  const added = await server.request("POST", "/v1/sources", {
    namespace: "docs",
    kind: "mcp",
    transport: { type: "http", url: upstream.mcpUrl },
  })
  expect(added.status, JSON.stringify(added.body)).toBe(201)
  expect(added.body.source.status).toBe("needs_login")
  const login = await server.request("POST", "/v1/sources/docs/login")
  expect(login.status, JSON.stringify(login.body)).toBe(403)
  expect(login.body.error.code).toBe("private_address")
  expect(login.body.error.message).toContain("127.0.0.2")
  expect(hits).toBe(0)
})
