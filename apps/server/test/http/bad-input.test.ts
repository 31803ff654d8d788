/** Each bad input gets its status and a clear message, and the server keeps serving. */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { fixtureCommand } from "@switchboard/fixtures"
import { startTestServer } from "../support/helpers.js"
import type { TestServer } from "../support/helpers.js"

describe("bad input over HTTP", () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer({ allowStdio: true })
  })
  afterAll(() => server?.stop())

  const expectServing = async () => expect((await server.request("GET", "/healthz")).body).toEqual({ ok: true })

  it("a body that is not JSON is 400 invalid_json", async () => {
    const response = await server.request("POST", "/v1/execute", "{not json")
    expect(response.status).toBe(400)
    expect(response.body.error.code).toBe("invalid_json")
    expect(response.body.error.message).toMatch(/JSON/)
    await expectServing()
  })

  it.each([
    ["no code", {}],
    ["code not a string", { code: 42 }],
    ["an array body", [1]],
    ["a bad timeout", { code: "return 1", timeoutMs: -5 }],
    ["an unknown limit", { code: "return 1", limits: { speed: 5 } }],
    ["a limit that is not a count", { code: "return 1", limits: { maxToolCalls: 1.5 } }],
    ["a stack too small to compile a script", { code: "return 1", limits: { stackBytes: 1 } }],
  ])("execute with %s is 400", async (_name, body) => {
    const response = await server.request("POST", "/v1/execute", body)
    expect(response.status).toBe(400)
    expect(response.body.error).toMatchObject({ code: "invalid_request" })
    expect(response.body.error.message.length).toBeGreaterThan(10)
  })

  it.each([
    [
      "a namespace that breaks the pattern",
      { namespace: "Bad-NS", kind: "mcp", transport: { type: "http", url: "http://127.0.0.1:1/mcp" } },
      /namespace must match/,
    ],
    ["an unknown kind", { namespace: "x", kind: "ftp" }, /unknown source kind "ftp"/],
    ["no transport", { namespace: "x", kind: "mcp" }, /transport/],
    [
      "a url that is not one",
      { namespace: "x", kind: "mcp", transport: { type: "http", url: "not a url" } },
      /not a URL/,
    ],
  ])("adding a source with %s is 400", async (_name, body, message) => {
    const response = await server.request("POST", "/v1/sources", body)
    expect(response.status).toBe(400)
    expect(response.body.error.message).toMatch(message)
  })

  it("unknown namespaces and tools are 404", async () => {
    for (const [method, path] of [
      ["POST", "/v1/sources/nope/sync"],
      ["DELETE", "/v1/sources/nope"],
      ["GET", "/v1/tools/nope.tool"],
      ["GET", "/v1/executions/nope"],
      ["GET", "/v1/nothing-here"],
    ] as const) {
      const response = await server.request(method, path)
      expect(response.status, `${method} ${path}`).toBe(404)
      expect(response.body.error.code).toBe("not_found")
    }
  })

  it("an MCP server command that does not exist is 400, naming it, and leaves no source behind", async () => {
    const response = await server.request("POST", "/v1/sources", {
      namespace: "ghost",
      kind: "mcp",
      transport: { type: "stdio", command: "/nonexistent/mcp-server", args: [] },
    })
    expect(response.status).toBe(400)
    expect(response.body.error).toEqual({
      code: "invalid_request",
      message: "transport.command: /nonexistent/mcp-server does not exist",
    })
    expect((await server.request("GET", "/v1/sources")).body.sources).toEqual([])
    await expectServing()
  })

  it("an unreachable HTTP MCP server is 502", async () => {
    const response = await server.request("POST", "/v1/sources", {
      namespace: "nowhere",
      kind: "mcp",
      transport: { type: "http", url: "http://127.0.0.1:9/mcp" },
    })
    expect(response.status).toBe(502)
    expect(response.body.error.message).toMatch(/could not add "nowhere"/)
  })

  it("a duplicate namespace is 409, and an MCP server that exits mid-call is a value, not a crash", async () => {
    const body = {
      namespace: "contract",
      kind: "mcp",
      transport: { type: "stdio", ...fixtureCommand("contract-stdio") },
    }
    expect((await server.request("POST", "/v1/sources", body)).status).toBe(201)
    const duplicate = await server.request("POST", "/v1/sources", body)
    expect(duplicate.status).toBe(409)
    expect(duplicate.body.error).toMatchObject({
      code: "conflict",
      message: 'a source with namespace "contract" already exists',
    })

    const crashed = await server.execute(`return await tools.contract.crash({})`)
    expect(crashed.ok).toBe(true)
    expect(crashed.result).toMatchObject({ ok: false, error: { code: "upstream_unavailable" } })
    expect(crashed.result.error.message).toMatch(/closed the connection/)
    await expectServing()
    // the pool noticed the death: the next call starts the server again
    const after = await server.execute(`return (await tools.contract.echo({ message: "back" })).data`)
    expect(after.result).toBe("back")
  }, 30_000)

  it("stdio sources are refused with 403 unless the server allows them", async () => {
    const strict = await startTestServer({ allowStdio: false })
    try {
      const response = await strict.request("POST", "/v1/sources", {
        namespace: "x",
        kind: "mcp",
        transport: { type: "stdio", command: "node", args: [] },
      })
      expect(response.status).toBe(403)
      expect(response.body.error.message).toMatch(/--allow-stdio/)
    } finally {
      await strict.stop()
    }
  })

  it("a request may lower a limit, never raise one past the server's", async () => {
    const lowered = await server.execute(`await tools.x.y(); await tools.x.y(); return 1`, {
      limits: { maxToolCalls: 1 },
    })
    expect(lowered).toMatchObject({ ok: false, error: { code: "tool_call_limit" } })
    expect(lowered.error.message).toMatch(/\b1\b/)
    const raised = await server.execute(`return "x".repeat(9 * 1024 * 1024)`, {
      limits: { maxResultBytes: 10_000_000_000 },
    })
    expect(raised).toMatchObject({ ok: false, error: { code: "result_too_large" } }) // the server's 8 MiB still applies
  })

  it("a script that throws is ok:false with its message, over a 200", async () => {
    const response = await server.execute(`throw new Error("boom")`)
    expect(response).toMatchObject({ ok: false, error: { code: "runtime_error" } })
    expect(response.error.message).toMatch(/boom/)
  })
})
