/**
 * The first whole path, end to end with every part real: a fixture MCP server of ours (stdio and
 * streamable HTTP), added over HTTP, called from QuickJS scripts through POST /v1/execute. The result-contract
 * cases are the HTTP scenario suite's table (@switchboard/fixtures/http-scenarios), run here over stdio and HTTP
 * on SQLite and Postgres.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { contractToolNames, fixtureCommand, startContractHttpServer } from "@switchboard/fixtures"
import { resultContractCases } from "@switchboard/fixtures/http-scenarios"
import { startTestServer } from "../support/helpers.js"
import type { DatabaseKind, TestServer } from "../support/helpers.js"

const transports = {
  stdio: async () => ({ transport: { type: "stdio", ...fixtureCommand("contract-stdio") }, close: async () => {} }),
  http: async () => {
    const upstream = await startContractHttpServer()
    return {
      transport: { type: "http", url: upstream.url, headers: { authorization: "Bearer secret-token" } },
      close: upstream.close,
    }
  },
}

const matrix = (["stdio", "http"] as const).flatMap((kind) =>
  (["sqlite", "postgres"] as DatabaseKind[]).map((database) => [kind, database] as const),
)

describe.each(matrix)("execute against the contract server over %s, catalog on %s", (kind, database) => {
  let server: TestServer
  let closeUpstream: () => Promise<void>

  beforeAll(async () => {
    server = await startTestServer({ allowStdio: true, database })
    const upstream = await transports[kind]()
    closeUpstream = upstream.close
    const added = await server.request("POST", "/v1/sources", {
      namespace: "contract",
      kind: "mcp",
      transport: upstream.transport,
    })
    expect(added.status).toBe(201)
    expect(added.body.source).toMatchObject({
      namespace: "contract",
      kind: "mcp",
      status: "ready",
      toolCount: contractToolNames.length,
      syncError: null,
    })
    expect(Date.parse(added.body.source.lastSyncedAt)).toBeGreaterThan(0)
  }, 30_000)

  afterAll(async () => {
    await server?.stop()
    await closeUpstream?.()
  })

  it("stores every tool across all tools/list pages, names kept exactly, stamped v2", async () => {
    const listed = await server.request("GET", "/v1/tools?namespace=contract")
    expect(listed.body.tools.map((t: { name: string }) => t.name).sort()).toEqual([...contractToolNames].sort())
    const tool = await server.request("GET", "/v1/tools/contract.camelCaseTool")
    expect(tool.body.tool).toMatchObject({
      path: "contract.camelCaseTool",
      namespace: "contract",
      name: "camelCaseTool",
      resultEncoding: "mcp-call-tool-result-v2",
    })
    const structured = await server.request("GET", "/v1/tools/contract.structured")
    expect(structured.body.tool.outputSchema).toMatchObject({ type: "object", required: ["temperature", "conditions"] })
    const prose = await server.request("GET", "/v1/tools/contract.prose")
    expect(prose.body.tool.outputSchema).toBeNull()
  })

  it("never echoes header or env values", async () => {
    const listed = await server.request("GET", "/v1/sources")
    expect(JSON.stringify(listed.body)).not.toContain("secret-token")
    expect(listed.body.sources[0].namespace).toBe("contract")
  })

  it.each(resultContractCases)("%s", async (_name, code, expected) => {
    const response = await server.execute(code)
    expect(response).toMatchObject({ ok: true })
    expect(response.result).toEqual(expected)
  })

  it("an unknown tool answers tool_not_found with the closest names", async () => {
    const response = await server.execute(`return await tools.contract.ecko({ message: "hi" })`)
    expect(response.result.ok).toBe(false)
    expect(response.result.error.code).toBe("tool_not_found")
    expect(response.result.error.message).toContain('"contract.echo"')
  })

  it("console output is captured and the execution is recorded", async () => {
    const response = await server.execute(
      `console.log("hello", { a: 1 }); console.warn("careful"); const r = await tools.contract.echo({ message: "m" }); return r.data`,
    )
    expect(response.logs).toEqual([
      { level: "log", message: 'hello {"a":1}' },
      { level: "warn", message: "careful" },
    ])
    const record = await server.request("GET", `/v1/executions/${response.executionId}`)
    expect(record.status).toBe(200)
    expect(record.body.execution).toMatchObject({ status: "ok", toolCallCount: 1, resultText: "m" })
    expect(record.body.execution.calls[0]).toMatchObject({
      toolPath: "contract.echo",
      encoding: "mcp-call-tool-result-v2",
      ok: true,
    })
  })

  it("concurrent executes: each record, tool calls included, is readable as soon as its answer arrives", async () => {
    const answered = await Promise.all(
      Array.from({ length: 12 }, async (_, i) => {
        const response = await server.execute(`return (await tools.contract.echo({ message: "n${i}" })).data`)
        return { response, record: await server.request("GET", `/v1/executions/${response.executionId}`) }
      }),
    )
    for (const [i, { response, record }] of answered.entries()) {
      expect(response.result).toBe(`n${i}`)
      expect(record.status).toBe(200)
      expect(record.body.execution).toMatchObject({
        id: response.executionId,
        status: "ok",
        toolCallCount: 1,
        resultText: `n${i}`,
      })
      expect(record.body.execution.calls).toMatchObject([{ toolPath: "contract.echo", ok: true }])
    }
  })

  it("a tool that outlives the request timeout gives tool_timeout or timeout, and the server keeps serving", async () => {
    const response = await server.execute(`return await tools.contract.hang({})`, { timeoutMs: 1000 })
    expect(response.ok === false ? response.error.code : response.result.error.code).toMatch(/timeout/)
    expect((await server.execute(`return (await tools.contract.echo({ message: "still here" })).data`)).result).toBe(
      "still here",
    )
  })
})
