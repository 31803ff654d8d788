/**
 * The MCP server builder on its own, in memory, with stand-in services: what the model sees when
 * arguments are wrong, a tool is unknown, or a service fails. The end-to-end suite is
 * apps/server/test/http/mcp-endpoint.test.ts.
 */
import { describe, expect, it } from "vitest"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js"
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js"
import type * as Catalog from "@switchboard/core/catalog"
import type * as Executor from "@switchboard/core/executor"
import type { ExecuteRequest } from "@switchboard/core"
import { createMcpServer } from "../src/mcp/index.js"
import type { McpServices } from "../src/mcp/index.js"

const tool = (name: string, outputSchema: unknown = null): Catalog.ToolRow => ({
  id: name,
  sourceId: "s1",
  namespace: "ns",
  name,
  path: `ns.${name}`,
  description: `does ${name}`,
  inputSchema: { type: "object", properties: { q: { type: "string" } } },
  outputSchema,
  annotations: null,
  resultEncoding: null,
  encoding: "direct",
  syncedAt: 0,
})

const stubServices = (
  overrides: {
    sources?: Catalog.SourceRow[]
    stored?: Partial<Catalog.StoredExecution> | null
    executions?: ExecuteRequest[]
    failStore?: boolean
    response?: Executor.ExecuteResponse
  } = {},
) => {
  const errors: string[] = []
  const executions = overrides.executions ?? []
  const services = {
    logger: { error: (message: string) => void errors.push(message), warn: () => {}, info: () => {} },
    sources: { ensureFreshNamespace: async () => {} },
    store: {
      listSources: async () => overrides.sources ?? [],
      listTools: async () => [tool("search"), tool("get-item", { type: "object" })],
      getTool: async (_ns: string, name: string) => (name === "search" ? tool("search") : null),
      getExecution: async (id: string) => {
        if (overrides.failStore) throw new Error("database is locked")
        return overrides.stored === undefined || overrides.stored === null
          ? null
          : ({ id, resultText: null, ...overrides.stored } as Catalog.StoredExecution)
      },
      getResult: async () => {
        if (overrides.failStore) throw new Error("database is locked")
        if (overrides.stored === undefined || overrides.stored === null) return null
        const text = overrides.stored.resultText ?? null
        return {
          keyId: null,
          bytes: text === null ? null : new TextEncoder().encode(text).length,
          pages: text === null ? 0 : 1,
        }
      },
      readResultPage: async () => overrides.stored?.resultText ?? null,
    },
    executor: {
      parse: (body: unknown) =>
        typeof (body as { code?: unknown }).code === "string"
          ? { ok: true as const, value: body as ExecuteRequest }
          : {
              ok: false as const,
              error: { _tag: "InvalidInput", message: '"code" must be a string holding the script' },
            },
      run: async (request: ExecuteRequest): Promise<Executor.ExecuteResponse> => {
        executions.push(request)
        return (
          overrides.response ?? {
            executionId: "e1",
            stored: true,
            ok: true,
            result: "x",
            text: "rendered by core",
            logs: [],
          }
        )
      },
    },
  }
  return { services: services as unknown as McpServices, errors, executions }
}

const connect = async (services: McpServices) => {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
  await createMcpServer(services).connect(serverSide)
  const client = new Client({ name: "test", version: "1" })
  await client.connect(clientSide)
  return {
    client,
    call: async (name: string, args: Record<string, unknown>) =>
      (await client.callTool({ name, arguments: args })) as CallToolResult,
  }
}

describe("createMcpServer", () => {
  it("reads the namespaces at every tools/list", async () => {
    const sources: Catalog.SourceRow[] = []
    const { client } = await connect(stubServices({ sources }).services)
    const before = (await client.listTools()).tools.find((t) => t.name === "execute")!
    expect(before.description).toContain("No sources are connected yet.")
    sources.push({ namespace: "github" } as Catalog.SourceRow, { namespace: "docs" } as Catalog.SourceRow)
    const after = (await client.listTools()).tools.find((t) => t.name === "execute")!
    expect(after.description).toContain("Connected namespaces: docs, github.")
  })

  it("names the first 20 namespaces and counts the rest, so the listing stays short as sources are added", async () => {
    const sources = Array.from(
      { length: 23 },
      (_, i) => ({ namespace: `ns${String(i).padStart(2, "0")}` }) as Catalog.SourceRow,
    )
    const { client } = await connect(stubServices({ sources }).services)
    const { description } = (await client.listTools()).tools.find((t) => t.name === "execute")!
    expect(description).toContain("Connected namespaces: ns00, ns01, ")
    expect(description).toContain(", ns19 and 3 more.")
    expect(description).not.toContain("ns20")
  })

  it("passes the executor's text through untouched", async () => {
    const { call } = await connect(stubServices().services)
    expect(await call("execute", { code: "return 1" })).toEqual({
      content: [{ type: "text", text: "rendered by core" }],
      _meta: { "switchboard/execution": { stored: true, executionId: "e1" } },
    })
  })

  it("says when the execution's record could not be stored, in a last text block and in _meta, naming no id", async () => {
    const warning =
      "this execution's record was not stored (disk I/O error (SQLITE_IOERR_WRITE); correlation id c1), so it cannot be read back later"
    const response: Executor.ExecuteResponse = {
      stored: false,
      warning,
      ok: true,
      result: 1,
      text: "1",
      logs: [{ level: "log", message: "hi" }],
    }
    const { call } = await connect(stubServices({ response }).services)
    expect(await call("execute", { code: "return 1" })).toEqual({
      content: [
        { type: "text", text: "1" },
        { type: "text", text: "logs:\n[log] hi" },
        { type: "text", text: `warning: ${warning}` },
      ],
      _meta: { "switchboard/execution": { stored: false } },
    })
  })

  it("answers bad arguments with isError, so the model can correct itself", async () => {
    const { call } = await connect(stubServices().services)
    expect(await call("execute", {})).toEqual({
      isError: true,
      content: [{ type: "text", text: 'invalid arguments: "code" must be a string holding the script' }],
    })
    const bad = await call("describe", { limit: 0 })
    expect(bad.isError).toBe(true)
    expect((bad.content[0] as { text: string }).text).toMatch(/^invalid arguments: .*limit/s)
  })

  it("answers an unknown tool with a JSON-RPC error, not a tool result", async () => {
    const { call } = await connect(stubServices().services)
    await expect(call("nope", {})).rejects.toThrow(/unknown tool "nope"/)
  })

  it("turns a failing service into isError with a correlation id, and logs it", async () => {
    const { services, errors } = stubServices({ failStore: true })
    const { call } = await connect(services)
    const result = await call("read_output", { executionId: "e1" })
    expect(result.isError).toBe(true)
    expect((result.content[0] as { text: string }).text).toMatch(/^internal error \(correlation id [0-9a-f-]{36}\)$/)
    expect(errors).toEqual(["internal error in MCP tool read_output"])
  })

  it("says when an execution stored no output", async () => {
    const { call } = await connect(stubServices({ stored: { resultText: null } }).services)
    expect(await call("grep_output", { executionId: "e9", pattern: "x" })).toMatchObject({
      isError: true,
      content: [{ text: 'execution "e9" failed and stored no output' }],
    })
  })
})
