/**
 * The scope matrix (issue 13): every route and every MCP tool, asked by a read key, an execute key and an admin
 * key (and a key from before scopes, stored as `*`), on a real server with keys, on SQLite and on Postgres. Then
 * who reads which execution. A route added later is one more row of `routes`; an MCP tool, one more of `mcpTools`.
 */
import { Effect } from "effect"
import { existsSync } from "node:fs"
import { join } from "node:path"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as Auth from "@switchboard/core/auth"
import { fixtureCommand } from "@switchboard/fixtures"
import { startTestServer, tempDir } from "../support/helpers.js"
import type { DatabaseKind, TestServer } from "../support/helpers.js"

type Role = "read" | "execute" | "admin" | "legacy"
const ROLES: Role[] = ["read", "execute", "admin", "legacy"]

/** A status, or 403 for a key without `needs`: the same answer for every role that lacks it. */
type Expected = number | { forbiddenBelow: "execute" | "admin"; otherwise: number }

interface RouteRow {
  method: string
  path: string
  body?: unknown
  expect: Expected
}

const contract = (namespace: string) => ({
  namespace,
  kind: "mcp",
  transport: { type: "stdio", ...fixtureCommand("contract-stdio") },
})
const admin = (otherwise: number): Expected => ({ forbiddenBelow: "admin", otherwise })
const execute = (otherwise: number): Expected => ({ forbiddenBelow: "execute", otherwise })

/** In order: the rows under /v1/sources/added add, sync and remove one source (admin's request is the last of each). */
const routes: RouteRow[] = [
  { method: "GET", path: "/v1/openapi.json", expect: 200 },
  { method: "GET", path: "/v1/sources", expect: 200 },
  { method: "GET", path: "/v1/tools", expect: 200 },
  { method: "GET", path: "/v1/tools?query=echo", expect: 200 },
  { method: "GET", path: "/v1/tools/contract.echo", expect: 200 },
  { method: "POST", path: "/v1/describe", body: { paths: ["contract.echo"] }, expect: execute(200) },
  { method: "POST", path: "/v1/execute", body: { code: "return 1" }, expect: execute(200) },
  { method: "POST", path: "/v1/sources", body: contract("added"), expect: admin(201) },
  { method: "POST", path: "/v1/sources/added/sync", expect: admin(200) },
  {
    method: "PATCH",
    path: "/v1/sources/added",
    body: { transport: { env: { TOKEN: "rotated-secret" } } },
    expect: admin(200),
  },
  { method: "DELETE", path: "/v1/sources/added", expect: admin(204) },
  // keys: admin only (a key that could make keys could make itself admin)
  { method: "POST", path: "/v1/keys", body: { name: "made", scopes: ["read"] }, expect: admin(201) },
  { method: "GET", path: "/v1/keys", expect: admin(200) },
  { method: "DELETE", path: "/v1/keys/no-such-key", expect: admin(404) },
  // policies and approvals: admin only (an agent's execute key must never decide its own calls)
  { method: "GET", path: "/v1/policies", expect: admin(200) },
  { method: "POST", path: "/v1/policies", body: { pattern: "nothing.*", action: "block" }, expect: admin(201) },
  { method: "DELETE", path: "/v1/policies/no-such-rule", expect: admin(404) },
  { method: "GET", path: "/v1/approvals", expect: admin(200) },
  { method: "GET", path: "/v1/approvals/no-such-approval", expect: admin(404) },
  { method: "POST", path: "/v1/approvals/no-such-approval", body: { decision: "approve" }, expect: admin(404) },
  { method: "GET", path: "/v1/executions", expect: 200 },
  { method: "GET", path: "/v1/executions/no-such-id", expect: 404 },
  { method: "GET", path: "/v1/executions/no-such-id/output", expect: 404 },
  { method: "GET", path: "/mcp", expect: 405 },
  { method: "DELETE", path: "/mcp", expect: 405 },
  // no such route: 404 whatever the key
  { method: "GET", path: "/v1/nothing", expect: 404 },
  { method: "POST", path: "/v1/tools", body: {}, expect: 404 },
]

const mcpTools: { name: string; args: Record<string, unknown>; needs: "read" | "execute" }[] = [
  { name: "execute", args: { code: "return 2" }, needs: "execute" },
  { name: "resume", args: { executionId: "no-such-id" }, needs: "execute" },
  { name: "describe", args: { query: "echo" }, needs: "execute" },
  { name: "read_output", args: { executionId: "no-such-id" }, needs: "read" },
  { name: "grep_output", args: { executionId: "no-such-id", pattern: "x" }, needs: "read" },
]

const rank = { read: 0, execute: 1, admin: 2, legacy: 2 }
const scopeOf = (role: Role) => (role === "legacy" ? "admin" : role)
const lacks = (role: Role, needs: "read" | "execute" | "admin") => rank[role] < rank[needs]
const texts = (result: CallToolResult) =>
  result.content.map((block) => (block.type === "text" ? block.text : `<${block.type}>`))

describe.each<DatabaseKind>(["sqlite", "postgres"])("scopes on %s", (database) => {
  let server: TestServer
  const token = {} as Record<Role | "execute2", string>
  const keyId = {} as Record<Role | "execute2", string>

  beforeAll(async () => {
    server = await startTestServer({ requireKey: true, allowStdio: true, database })
    for (const role of ["read", "execute", "admin"] as const)
      ({ key: token[role], id: keyId[role] } = await server.host.keys.create(role, [role]))
    ;({ key: token.execute2, id: keyId.execute2 } = await server.host.keys.create("execute2", ["execute"]))
    // a key made before scopes were checked: stored as ["*"]
    token.legacy = "sb_legacy-key-made-before-scopes-were-checked"
    keyId.legacy = "legacy"
    await server.host.store.insertApiKey({
      id: "legacy",
      name: "legacy",
      hash: await Auth.hashKey(token.legacy),
      scopes: ["*"],
      createdAt: 1,
      revokedAt: null,
    })
    await Effect.runPromise(server.host.sources.add(contract("contract")))
  }, 60_000)
  afterAll(() => server?.stop())

  const ask = async (key: string, method: string, path: string, body?: unknown) => {
    const response = await fetch(server.url + path, {
      method,
      headers: {
        authorization: `Bearer ${key}`,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    const text = await response.text()
    return { status: response.status, text, json: () => JSON.parse(text) }
  }

  const mcp = async <T>(role: Role | "execute2", use: (client: Client) => Promise<T>) => {
    const client = new Client({ name: "scope-matrix", version: "1.0.0" })
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${token[role]}` } },
      }),
    )
    try {
      return await use(client)
    } finally {
      await client.close()
    }
  }

  it.each(routes)(
    "$method $path",
    async ({ method, path, body, expect: expected }) => {
      for (const role of ROLES) {
        const response = await ask(token[role], method, path, body)
        if (typeof expected === "object" && lacks(role, expected.forbiddenBelow)) {
          expect(response.status, `${role}: ${response.text}`).toBe(403)
          expect(response.json()).toEqual({
            error: {
              code: "forbidden",
              message: `this route needs the "${expected.forbiddenBelow}" scope; this key has: ${scopeOf(role)}`,
            },
          })
          continue
        }
        const status = typeof expected === "number" ? expected : expected.otherwise
        // the legacy key is admin: it repeats admin's request, which a source added or removed answers differently
        if (role === "legacy" && path.startsWith("/v1/sources/added")) continue
        if (role === "legacy" && method === "POST" && path === "/v1/sources") {
          expect(response.status, response.text).toBe(409)
          continue
        }
        expect(response.status, `${role}: ${response.text}`).toBe(status)
      }
    },
    60_000,
  )

  it("MCP: tools/list shows each key only the tools it may call; calling another names the scope it needs", async () => {
    for (const role of ROLES) {
      await mcp(role, async (client) => {
        const listed = (await client.listTools()).tools.map((t) => t.name).sort()
        expect(listed, role).toEqual(
          mcpTools
            .filter((t) => !lacks(role, t.needs))
            .map((t) => t.name)
            .sort(),
        )
        for (const tool of mcpTools) {
          const result = (await client.callTool({ name: tool.name, arguments: tool.args })) as CallToolResult
          if (lacks(role, tool.needs)) {
            expect(result.isError, `${role} ${tool.name}`).toBe(true)
            expect(texts(result)).toEqual([
              `the ${tool.name} tool needs the "${tool.needs}" scope; this key has: ${scopeOf(role)}`,
            ])
          } else if (tool.name === "read_output" || tool.name === "grep_output" || tool.name === "resume") {
            expect(texts(result), `${role} ${tool.name}`).toEqual(['no execution "no-such-id"'])
          } else {
            expect(result.isError, `${role} ${tool.name}: ${texts(result)}`).toBeFalsy()
          }
        }
      })
    }
  }, 60_000)

  it("a read or execute key cannot make the host run a command through a stdio source", async () => {
    const dir = tempDir()
    try {
      const marker = join(dir.dir, "ran")
      for (const role of ["read", "execute"] as const) {
        const response = await ask(token[role], "POST", "/v1/sources", {
          namespace: "evil",
          kind: "mcp",
          transport: { type: "stdio", command: "sh", args: ["-c", `touch ${marker}`] },
        })
        expect(response.status).toBe(403)
      }
      expect(existsSync(marker)).toBe(false)
      expect(
        (await ask(token.admin, "GET", "/v1/sources")).json().sources.map((s: { namespace: string }) => s.namespace),
      ).toEqual(["contract"])
    } finally {
      dir.remove()
    }
  })

  it("an execution belongs to its key: another key without admin gets the same 404 as for a missing id, on every surface", async () => {
    const script = 'return "line one\\nline two"'
    const made: Record<string, string> = {}
    for (const owner of ["admin", "execute", "execute2"] as const) {
      const response = await ask(token[owner], "POST", "/v1/execute", { code: script })
      made[owner] = response.json().executionId
    }
    // through MCP too (a result long enough to be cut names its execution), and with no key at all
    // (`switchboard run` and a server without keys record none)
    made.mcp = await mcp("execute", async (client) => {
      const cut = (await client.callTool({
        name: "execute",
        arguments: { code: `return "line one\\nline two\\n" + "x\\n".repeat(20000)` },
      })) as CallToolResult
      const pointer = texts(cut)[0]!.split("\n").pop()!
      return (JSON.parse(/read_output (\{[^}]*\})/.exec(pointer)![1]!) as { executionId: string }).executionId
    })
    made.none = (await Effect.runPromise(server.host.executor.execute({ code: script }))).executionId!

    expect((await ask(token.execute, "GET", `/v1/executions/${made.execute}`)).json().execution).toMatchObject({
      id: made.execute,
      keyId: keyId.execute,
    })
    expect((await ask(token.execute, "GET", `/v1/executions/${made.mcp}`)).json().execution).toMatchObject({
      id: made.mcp,
      keyId: keyId.execute,
    })
    expect((await ask(token.admin, "GET", `/v1/executions/${made.none}`)).json().execution).toMatchObject({
      keyId: null,
    })

    /** who may read what: admin and the legacy key read every execution, a key its own, read keys none */
    const ownerOf: Record<string, string> = {
      admin: "admin",
      execute: "execute",
      execute2: "execute2",
      mcp: "execute",
      none: "nobody",
    }
    const readable = (role: Role | "execute2", made: string) =>
      role === "admin" || role === "legacy" || role === ownerOf[made]
    for (const role of [...ROLES, "execute2"] as const) {
      for (const owner of Object.keys(ownerOf)) {
        const id = made[owner]!
        const missing = { error: { code: "not_found", message: `no execution "${id}"` } }
        const record = await ask(token[role], "GET", `/v1/executions/${id}`)
        const output = await ask(token[role], "GET", `/v1/executions/${id}/output`)
        const page = await ask(token[role], "GET", `/v1/executions/${id}/output?grep=two`)
        const { read, grep, resume } = await mcp(role, async (client) => ({
          read: (await client.callTool({ name: "read_output", arguments: { executionId: id } })) as CallToolResult,
          grep: (await client.callTool({
            name: "grep_output",
            arguments: { executionId: id, pattern: "two" },
          })) as CallToolResult,
          resume: (await client.callTool({ name: "resume", arguments: { executionId: id } })) as CallToolResult,
        }))
        const label = `${role} reading ${owner}'s execution`
        if (readable(role, owner)) {
          expect(record.status, label).toBe(200)
          expect(output.status, label).toBe(200)
          expect(output.text.startsWith("line one\nline two"), label).toBe(true)
          expect(page.json().matches, label).toEqual([{ line: 1, text: "line two" }])
          expect(texts(read)[0]!.startsWith("0\tline one\n1\tline two"), label).toBe(true)
          expect(texts(grep)[0], label).toBe("1\tline two")
          // an ended execution: resume answers its stored result (needs `execute`)
          if (role !== "read") expect(texts(resume)[0]!.startsWith("line one\nline two"), label).toBe(true)
        } else {
          for (const response of [record, output, page]) {
            expect(response.status, label).toBe(404)
            expect(response.json(), label).toEqual(missing)
          }
          expect(read.isError, label).toBe(true)
          expect(texts(read), label).toEqual([`no execution "${id}"`])
          expect(texts(grep), label).toEqual([`no execution "${id}"`])
          if (role !== "read") expect(texts(resume), label).toEqual([`no execution "${id}"`])
        }
      }
    }
  }, 120_000)
})

it("a loopback server without keys keeps today's behaviour: anyone adds sources and reads every execution", async () => {
  const open = await startTestServer({ allowStdio: true })
  try {
    expect((await open.request("POST", "/v1/sources", contract("contract"))).status).toBe(201)
    const { executionId } = await open.execute("return 'hi'")
    const record = await open.request("GET", `/v1/executions/${executionId}`)
    expect(record.status).toBe(200)
    expect(record.body.execution).toMatchObject({ keyId: null, resultText: "hi" })
    expect((await open.request("DELETE", "/v1/sources/contract")).status).toBe(204)
  } finally {
    await open.stop()
  }
}, 60_000)
