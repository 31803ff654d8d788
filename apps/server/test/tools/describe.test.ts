/**
 * Describe end to end: TypeScript from a declared schema, from shapes learned from real calls (with
 * provenance), cold, and never from a shape learned under another encoding. Golden files hold the
 * expected text, with dates normalized; `UPDATE_GOLDEN=1` rewrites them.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs"
import { createRequire } from "node:module"
import Database from "better-sqlite3"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { fixtureCommand } from "@switchboard/fixtures"
import { startTestServer } from "../support/helpers.js"
import type { TestServer } from "../support/helpers.js"

const everythingBin = createRequire(import.meta.url).resolve("@modelcontextprotocol/server-everything/dist/index.js")
const golden = (name: string, actual: string) => {
  const normalized = actual.replace(/\d{4}-\d{2}-\d{2}/g, "YYYY-MM-DD")
  const file = new URL(`./golden/${name}.ts.txt`, import.meta.url)
  if (process.env.UPDATE_GOLDEN === "1") writeFileSync(file, normalized)
  if (!existsSync(file)) throw new Error(`missing golden file ${file.pathname}; run with UPDATE_GOLDEN=1 to write it`)
  expect(normalized).toBe(readFileSync(file, "utf8"))
}

let server: TestServer
beforeAll(async () => {
  server = await startTestServer({ allowStdio: true })
  for (const body of [
    {
      namespace: "everything",
      kind: "mcp",
      transport: { type: "stdio", command: process.execPath, args: [everythingBin, "stdio"] },
    },
    { namespace: "contract", kind: "mcp", transport: { type: "stdio", ...fixtureCommand("contract-stdio") } },
  ])
    expect((await server.request("POST", "/v1/sources", body)).status).toBe(201)
}, 60_000)
afterAll(() => server?.stop())

const typescriptOf = async (path: string) => (await server.request("GET", `/v1/tools/${path}`)).body.tool

describe("describe on a catalog synced from server-everything", () => {
  it("declared: the output schema types data directly, never the envelope", async () => {
    const tool = await typescriptOf("everything.get-structured-content")
    expect(tool.outputSource).toBe("declared")
    expect(tool.typescript).not.toMatch(/structuredContent|content\s*:/)
    golden("declared-get-structured-content", tool.typescript)
  })

  it("cold: a tool never called is unknown, and says so", async () => {
    const tool = await typescriptOf("everything.get-tiny-image")
    expect(tool.outputSource).toBe("unknown")
    golden("cold-get-tiny-image", tool.typescript)
  })

  it("observed: learned from real calls, with provenance", async () => {
    await server.execute(`for (const [a, b] of [[1, 2], [3, 4], [5, 6]]) await tools.everything["get-sum"]({ a, b })`)
    const tool = await typescriptOf("everything.get-sum")
    expect(tool.outputSource).toBe("observed")
    expect(tool.typescript).toMatch(/observed in 3 calls/)
    golden("observed-get-sum", tool.typescript)
  })

  it("a shape learned under another encoding is never served", async () => {
    const echo = await typescriptOf("everything.echo")
    const sqlite = new Database(server.dbPath)
    const { id } = sqlite.prepare("select id from tools where path = 'everything.echo'").get() as { id: string }
    // as a build before stamping would have learned it: the whole envelope, under `direct`
    sqlite
      .prepare(
        "insert into tool_shapes (tool_id, encoding, shape, sample_count, first_seen_at, last_seen_at) values (?, 'direct', ?, 40, 1, 2)",
      )
      .run(
        id,
        JSON.stringify({
          kind: "object",
          samples: 40,
          fields: { content: { shape: { kind: "array", items: { kind: "unknown" } }, seen: 40 } },
        }),
      )
    sqlite.close()
    const after = await typescriptOf("everything.echo")
    expect(after.outputSource).toBe("unknown")
    expect(after.typescript).toBe(echo.typescript)
    golden("older-encoding-echo", after.typescript)
  })
})

it("a tool with no output schema, called five times with varied results, is described by what it returned", async () => {
  await server.execute(
    `for (const n of [1, 2, 3, 5, 6]) { const r = await tools.contract.varied({ n }); if (!r.ok) throw new Error(r.error.message) }`,
  )
  const tool = await typescriptOf("contract.varied")
  expect(tool.outputSource).toBe("observed")
  expect(tool.typescript).toContain("observed in 5 calls")
  expect(tool.typescript).toMatch(/id: number/)
  expect(tool.typescript).toMatch(/name: string/)
  expect(tool.typescript).toMatch(/tags\?: string\[\]/)
  expect(tool.typescript).toMatch(/note\?: null/)
  // `score` came back in one call of five: a key seen once could be that caller's data, so it is not kept
  expect(tool.typescript).not.toContain("score")
  golden("observed-varied", tool.typescript)
})

it("a key that could be one caller's data never reaches another caller's describe", async () => {
  const secretKey = "alice@example.com"
  const result = JSON.stringify({ id: 1, [secretKey]: { role: "admin" } })
  await server.execute(
    `const r = await tools.contract.echo({ message: ${JSON.stringify(result)} }); if (!r.ok || r.data.id !== 1) throw new Error("not decoded")`,
  )
  const tool = await typescriptOf("contract.echo")
  expect(tool.outputSource).toBe("observed")
  expect(tool.typescript).toContain("Record<string, number | {")
  const described = await server.request("POST", "/v1/describe", { paths: ["contract.echo"] })
  expect(JSON.stringify(described.body)).not.toContain(secretKey)
  const sqlite = new Database(server.dbPath)
  const stored = sqlite
    .prepare("select shape from tool_shapes s join tools t on t.id = s.tool_id where t.path = 'contract.echo'")
    .all() as { shape: string }[]
  sqlite.close()
  expect(stored.length).toBeGreaterThan(0)
  for (const row of stored) expect(row.shape).not.toContain(secretKey)
})

it("search ranks by relevance and splits identifiers; POST /v1/describe shares declarations", async () => {
  const ranked = (await server.request("GET", "/v1/tools?query=structured%20content")).body.tools.map(
    (t: { path: string }) => t.path,
  )
  expect(ranked[0]).toBe("everything.get-structured-content")
  expect((await server.request("GET", "/v1/tools?query=camel%20case")).body.tools[0].path).toBe(
    "contract.camelCaseTool",
  )

  const many = await server.request("POST", "/v1/describe", {
    paths: ["everything.echo", "everything.get-sum", "contract.nope"],
  })
  expect(many.status).toBe(200)
  expect(many.body.missing).toEqual(["contract.nope"])
  expect(many.body.typescript.match(/type ToolResult</g)).toHaveLength(1)
  expect(many.body.typescript).toContain("echo(")
  const byQuery = await server.request("POST", "/v1/describe", { query: "sum", limit: 1 })
  expect(byQuery.body.tools.map((t: { path: string }) => t.path)).toEqual(["everything.get-sum"])
  expect((await server.request("POST", "/v1/describe", { paths: "x" })).status).toBe(400)
  // numeric parameters are range-checked with a 400 naming them, never a 500 from the database
  for (const path of ["/v1/tools?limit=1e20", "/v1/tools?limit=0", "/v1/tools?query=sum&limit=99999999999999999999"]) {
    const answer = await server.request("GET", path)
    expect(answer.status, path).toBe(400)
    expect(answer.body.error.message).toMatch(/^limit must be a whole number from 1 to 1000/)
  }
  expect((await server.request("POST", "/v1/describe", { query: "sum", limit: 1e20 })).status).toBe(400)
})

it("inside the sandbox, tools.$search and tools.$describe answer the same", async () => {
  const response = await server.execute(`
    const found = await tools.$search("structured content", 1)
    const described = await tools.$describe(found.data[0].path)
    return { path: found.data[0].path, ts: described.data }
  `)
  expect(response.result.path).toBe("everything.get-structured-content")
  expect(response.result.ts).toBe(
    (await server.request("POST", "/v1/describe", { paths: ["everything.get-structured-content"] })).body.typescript,
  )
  const missing = await server.execute(`return await tools.$describe("everything.nope")`)
  expect(missing.result).toMatchObject({ ok: false, error: { code: "tool_not_found" } })
})
