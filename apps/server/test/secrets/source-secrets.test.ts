/** ARCHITECTURE.md: safety end to end: a source's secrets never come back in an API response or a log line, whatever the source prints. */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { leakyServerScript, startContractHttpServer } from "@switchboard/fixtures"
import type { ContractHttpServer } from "@switchboard/fixtures"
import { memoryLogger, startTestServer } from "../support/helpers.js"
import type { TestServer } from "../support/helpers.js"

const SECRET = "tok-3c2b1a0f9e8d"

/** A stdio MCP server with one tool whose every call fails with an error that echoes the token (and prints it on stderr). */
const LEAKY_SERVER = leakyServerScript({ listsTools: true })

describe("source secrets over HTTP", () => {
  const { logger, lines } = memoryLogger()
  let server: TestServer
  let upstream: ContractHttpServer
  beforeAll(async () => {
    server = await startTestServer({ allowStdio: true, logger })
    upstream = await startContractHttpServer()
  })
  afterAll(async () => {
    await server?.stop()
    await upstream?.close()
  })
  const expectNoSecretLogged = () => expect(JSON.stringify(lines)).not.toContain(SECRET)

  it("a server that prints its env and dies while being added: the 502 names the cause without the secret", async () => {
    const script = 'console.error("boot failed, token=" + process.env.API_TOKEN); process.exit(1)'
    const response = await server.request("POST", "/v1/sources", {
      namespace: "dies",
      kind: "mcp",
      transport: { type: "stdio", command: process.execPath, args: ["-e", script], env: { API_TOKEN: SECRET } },
    })
    expect(response.status).toBe(502)
    expect(response.body.error.message).toContain("boot failed, token=<redacted>")
    expect(JSON.stringify(response.body)).not.toContain(SECRET)
    expectNoSecretLogged()
  })

  it("a tool call whose upstream error echoes the secret: the script sees it scrubbed", async () => {
    const added = await server.request("POST", "/v1/sources", {
      namespace: "leaky",
      kind: "mcp",
      transport: { type: "stdio", command: process.execPath, args: ["-e", LEAKY_SERVER], env: { API_TOKEN: SECRET } },
    })
    expect(added.status).toBe(201)
    expect(JSON.stringify(added.body)).not.toContain(SECRET)
    const run = await server.execute("const r = await tools.leaky.leak({}); return r.ok ? 'leaked?' : r.error.message")
    expect(JSON.stringify(run)).toContain("backend refused token <redacted>")
    expect(JSON.stringify(run)).not.toContain(SECRET)
    expect(JSON.stringify((await server.request("GET", "/v1/sources")).body)).not.toContain(SECRET)
    expectNoSecretLogged()
  })

  it("an http source's query values and headers are redacted in the listing", async () => {
    const added = await server.request("POST", "/v1/sources", {
      namespace: "withkey",
      kind: "mcp",
      transport: {
        type: "http",
        url: `${upstream.url}?api_key=${SECRET}`,
        headers: { authorization: `Bearer ${SECRET}` },
      },
    })
    expect(added.status, JSON.stringify(added.body)).toBe(201)
    const listed = JSON.stringify((await server.request("GET", "/v1/sources")).body)
    expect(listed).toContain("api_key=<redacted>")
    expect(listed).not.toContain(SECRET)
    expectNoSecretLogged()
  })

  it("URL userinfo is refused when the source is added (fetch could never connect with it), naming the header to use, without the password", async () => {
    const url = upstream.url.replace("http://", `http://me:${SECRET}@`)
    const response = await server.request("POST", "/v1/sources", {
      namespace: "userinfo",
      kind: "mcp",
      transport: { type: "http", url, headers: {} },
    })
    expect(response.status).toBe(400)
    expect(response.body.error.code).toBe("invalid_request")
    expect(response.body.error.message).toMatch(/user or password.*authorization/)
    expect(JSON.stringify(response.body)).not.toContain(SECRET)
    expect(JSON.stringify((await server.request("GET", "/v1/sources")).body)).not.toContain('"userinfo"')
    expectNoSecretLogged()
  })
})
