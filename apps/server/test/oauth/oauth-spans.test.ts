/**
 * No token in a span: a server in its own process, exporting its traces to an OTLP/HTTP receiver here, logs a source
 * in (the MCP SDK's authorization server), refreshes its token (each lives 30 s, inside the minute before expiry)
 * and calls it; every byte the collector received, and every line the server wrote, is free of every token issued.
 */
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { join } from "node:path"
import { afterAll, beforeAll, expect, it } from "vitest"
import { startSdkAuthServer } from "@switchboard/fixtures"
import type { SdkAuthServer } from "@switchboard/fixtures"
import { tempDir } from "../support/helpers.js"
import { call, spawnServe } from "../support/process-harness.js"

const received: string[] = []
const receiver = createServer((req, res) => {
  let body = ""
  req.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")))
  req.on("end", () => {
    received.push(body)
    res.writeHead(200, { "content-type": "application/json" }).end("{}")
  })
})
let upstream: SdkAuthServer
const folder = tempDir()
beforeAll(async () => {
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve))
  upstream = await startSdkAuthServer({ accessTtlSeconds: 30 })
})
afterAll(async () => {
  receiver.close()
  await upstream?.close()
  folder.remove()
})

it("no token reaches a span, a log line or an answer", async () => {
  const collector = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`
  const server = await spawnServe(["--db", join(folder.dir, "catalog.db"), "--workers", "1"], {
    env: { OTEL_EXPORTER_OTLP_ENDPOINT: collector, OTEL_BSP_SCHEDULE_DELAY: "50" },
  })
  const answers: unknown[] = []
  try {
    const added = await call(server.url, "POST", "/v1/sources", {
      namespace: "docs",
      kind: "mcp",
      transport: { type: "http", url: upstream.mcpUrl },
    })
    expect(added.status).toBe(201)
    const login = await call(server.url, "POST", "/v1/sources/docs/login")
    answers.push(added.body, login.body)
    const redirect = await fetch(login.body.authorizationUrl, { redirect: "manual" })
    const page = await fetch(redirect.headers.get("location")!)
    answers.push(await page.text())
    for (let i = 0; i < 3; i++) {
      const ran = await call(server.url, "POST", "/v1/execute", { code: "return (await tools.docs.whoami({})).data" })
      expect(ran.body.result).toMatchObject({ resource: upstream.mcpUrl })
      answers.push(ran.body)
    }
    expect(upstream.provider.counts.refreshes).toBeGreaterThan(0)
    // batched every 50 ms: wait for the tool calls' spans (a bounded number of looks, no timing asserted)
    for (let i = 0; i < 200 && !received.join("").includes("docs.whoami"); i++)
      await new Promise((resolve) => setTimeout(resolve, 25))
  } finally {
    await server.stop()
  }
  const spans = received.join("\n")
  expect(spans).toContain("docs.whoami")
  const everything = [spans, server.stdout(), server.stderr(), JSON.stringify(answers)].join("\n")
  const tokens = upstream.provider.issuedTokens()
  expect(tokens.length).toBeGreaterThan(2)
  for (const token of tokens) expect(everything).not.toContain(token)
})
