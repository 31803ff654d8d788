/**
 * OpenAPI sources in a real server beside an MCP source: one catalog, each row stamped with its encoding, each
 * decoded and learning shapes under its own; GitHub's whole spec synced, described and searched, and called against
 * a loopback fixture answering GitHub's documented examples; Switchboard's own OpenAPI document as a source.
 */
import Database from "better-sqlite3"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { fixtureCommand, startGithubService, startPetsService } from "@switchboard/fixtures"
import type { GithubService, PetsService } from "@switchboard/fixtures"
import { startTestServer } from "../support/helpers.js"
import type { TestServer } from "../support/helpers.js"

let server: TestServer
let pets: PetsService
let github: GithubService

beforeAll(async () => {
  ;[server, pets, github] = await Promise.all([
    startTestServer({ allowStdio: true }),
    startPetsService(),
    startGithubService(),
  ])
  const bodies = [
    { namespace: "contract", kind: "mcp", transport: { type: "stdio", ...fixtureCommand("contract-stdio") } },
    { namespace: "pets", kind: "openapi", spec: { url: `${pets.url}/openapi.yaml` } },
    { namespace: "github", kind: "openapi", spec: { url: `${github.url}/openapi.json` }, baseUrl: github.url },
  ]
  for (const body of bodies) {
    const added = await server.request("POST", "/v1/sources", body)
    expect(added.status, JSON.stringify(added.body)).toBe(201)
  }
}, 120_000)
afterAll(async () => {
  await server?.stop()
  await pets?.close()
  await github?.close()
})

const tool = async (path: string) => (await server.request("GET", `/v1/tools/${encodeURIComponent(path)}`)).body.tool

describe("an MCP source and an OpenAPI source in one catalog", () => {
  it("stamps each row with its own encoding", async () => {
    expect(await tool("contract.structured")).toMatchObject({ resultEncoding: "mcp-call-tool-result-v2" })
    expect(await tool("pets.getPet")).toMatchObject({ resultEncoding: "direct", outputSource: "declared" })
    const listed = await server.request("GET", "/v1/sources")
    expect(
      listed.body.sources.map((s: { namespace: string; toolCount: number }) => [s.namespace, s.toolCount]),
    ).toEqual([
      ["contract", expect.any(Number)],
      ["github", 1223],
      ["pets", 20],
    ])
  })

  it("decodes each under its encoding and learns shapes under each, recording the encoding of every call", async () => {
    const answer = await server.execute(`
      const pet = await tools.pets.getPet({ petId: 2 })
      const structured = await tools.contract.structured({})
      const missing = await tools.pets.getPet({ petId: 99 })
      return { pet: pet.data, status: pet.meta.status, structured: structured.data, missing: missing.error }`)
    expect(answer.result).toMatchObject({
      pet: { id: 2, name: "Rex" },
      status: 200,
      structured: expect.any(Object),
      missing: { code: "http_404", data: { code: "not_found", message: "no pet 99" } },
    })
    const execution = await server.request("GET", `/v1/executions/${answer.executionId}`)
    expect(
      execution.body.execution.calls.map((c: { toolPath: string; encoding: string }) => [c.toolPath, c.encoding]),
    ).toEqual([
      ["pets.getPet", "direct"],
      ["contract.structured", "mcp-call-tool-result-v2"],
      ["pets.getPet", "direct"],
    ])
    const db = new Database(server.dbPath, { readonly: true })
    try {
      const shapes = db
        .prepare(
          "select t.path, s.encoding, s.sample_count as n from tool_shapes s join tools t on t.id = s.tool_id order by t.path",
        )
        .all()
      expect(shapes).toEqual([
        { path: "contract.structured", encoding: "mcp-call-tool-result-v2", n: 1 },
        { path: "pets.getPet", encoding: "direct", n: 1 },
      ])
    } finally {
      db.close()
    }
  })
})

describe("an OpenAPI source under the catalog's rules", () => {
  it("pauses a destructive operation (PUT) for approval, as the default policy does an MCP tool's", async () => {
    const response = await server.request("POST", "/v1/execute", {
      code: 'return (await tools.pets.replacePet({ petId: 1, body: { petId: 1, name: "Max" } })).ok',
    })
    expect(response.status).toBe(202)
    expect(response.body).toMatchObject({
      status: "paused",
      message: expect.stringMatching(/^paused before pets\.replacePet/),
    })
  })

  it("seals its credentials at rest and never shows them", async () => {
    const added = await server.request("POST", "/v1/sources", {
      namespace: "sealed",
      kind: "openapi",
      spec: { url: `${pets.url}/openapi.yaml` },
      auth: { bearerAuth: "sealed-bearer-token-42", basicAuth: { username: "vet", password: "sealed-password-42" } },
      headers: { "x-team-token": "sealed-header-42" },
    })
    expect(added.status).toBe(201)
    expect(added.body.source.config).toMatchObject({
      auth: { bearerAuth: "<redacted>", basicAuth: { username: "vet", password: "<redacted>" } },
      headers: { "x-team-token": "<redacted>" },
    })
    const db = new Database(server.dbPath, { readonly: true })
    try {
      const { config } = db.prepare("select config from sources where namespace = 'sealed'").get() as { config: string }
      expect(config).not.toMatch(/sealed-(bearer|password|header)-42/)
      expect(JSON.parse(config).auth.bearerAuth).toMatch(/^enc:v1:/)
    } finally {
      db.close()
    }
    expect((await server.request("DELETE", "/v1/sources/sealed")).status).toBe(204)
  })
})

describe("GitHub's REST API, as published", () => {
  it("describes repos/get with its declared data type, to the levels of fields that fit", async () => {
    const get = await tool("github.repos/get")
    expect(get).toMatchObject({ resultEncoding: "direct", outputSource: "declared" })
    expect(get.outputSchema.$ref).toBe("#/$defs/full-repository")
    // the whole type with every shared one it reaches is about 20,000 characters: the repository's own fields are
    // declared, its objects (owner, organization, parent...) by the names of their fields
    expect(get.typescript).toMatch(/type Github_ReposGet_Data = \{[^]*\n {2}full_name: string\n/)
    expect(get.typescript).toMatch(/fields: name, email, login, id, [^\n]*\n {2}owner: Record<string, unknown>\n/)
    expect(get.typescript).toContain("declared by the tool's output schema to 1 level of fields")
    expect(get.typescript).not.toContain("type Github_FullRepository")
    expect(get.typescript).toContain(
      '"repos/get"(args: Github_ReposGet_Input): Promise<ToolResult<Github_ReposGet_Data>>',
    )
  })

  it("declares only the fields asked for, the same on POST /v1/describe, the MCP tool and tools.$describe", async () => {
    const paths = ["github.repos/get", "github.pulls/get"]
    const fields = ["owner.login", "head.sha"]
    const http = await server.request("POST", "/v1/describe", { paths, fields })
    expect(http.status).toBe(200)
    const only = "/** declared by the tool's output schema: only the fields asked for; it declares no"
    expect(http.body.typescript).toContain(
      `${only} head.sha */\ntype Github_ReposGet_Data = {\n  /** A GitHub user. */\n  owner: {\n    login: string\n  }\n}`,
    )
    expect(http.body.typescript).toContain(
      `${only} owner.login */\ntype Github_PullsGet_Data = {\n  head: {\n    sha: string\n  }\n}`,
    )
    const client = new Client({ name: "switchboard-test-agent", version: "1.0.0" })
    await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)))
    try {
      const mcp = (await client.callTool({ name: "describe", arguments: { paths, fields } })) as CallToolResult
      expect(mcp.content).toEqual([{ type: "text", text: http.body.typescript }])
    } finally {
      await client.close()
    }
    const inScript = await server.execute(
      `return (await tools.$describe(${JSON.stringify(paths)}, ${JSON.stringify(fields)})).data`,
    )
    expect(inScript.result).toBe(http.body.typescript)
    const refused = await server.request("POST", "/v1/describe", { paths, fields: "head.sha" })
    expect(refused.status).toBe(400)
    expect(refused.body.error.message).toContain('"fields" must be an array of 1 to 50 field paths')
  })

  it('finds issues/create when searched for "create an issue"', async () => {
    const found = await server.request("GET", `/v1/tools?query=${encodeURIComponent("create an issue")}&limit=5`)
    expect(found.body.tools[0].path).toBe("github.issues/create")
  })

  it("calls answer as GitHub documents them, with the loopback fixture as baseUrl", async () => {
    const answer = await server.execute(`
      const repo = await tools.github["repos/get"]({ owner: "octocat", repo: "hello" })
      const issue = await tools.github["issues/create"]({ owner: "octocat", repo: "hello", title: "Found a bug" })
      return { repo: repo.data.full_name, owner: repo.data.owner.login, issue: [issue.meta.status, issue.data.title, issue.data.number] }`)
    expect(answer.result).toEqual({ repo: "octocat/hello", owner: "octocat", issue: [201, "Found a bug", 1347] })
    // each answer is checked against the schema GitHub declares for it, and a mismatch recorded with the call: GitHub's
    // own example of a full repository lacks `source.language`, which its schema requires (delivered all the same)
    const db = new Database(server.dbPath, { readonly: true })
    try {
      const calls = db
        .prepare("select tool_path as path, output_schema_error as mismatch from tool_calls where execution_id = ?")
        .all(answer.executionId)
      expect(calls).toEqual([
        { path: "github.repos/get", mismatch: "#/source: A subschema had errors." },
        { path: "github.issues/create", mismatch: null },
      ])
    } finally {
      db.close()
    }
  })
})

describe("Switchboard's own OpenAPI document as a source", () => {
  it("lists the catalog's tools through the imported operation as the HTTP route answers", async () => {
    const added = await server.request("POST", "/v1/sources", {
      namespace: "self",
      kind: "openapi",
      spec: { url: `${server.url}/v1/openapi.json` },
      baseUrl: server.url,
    })
    expect(added.status, JSON.stringify(added.body)).toBe(201)
    const answer = await server.execute(`return (await tools.self.listTools({ namespace: "pets" })).data`)
    const route = await server.request("GET", "/v1/tools?namespace=pets")
    expect(answer.result).toEqual(route.body)
    expect((await tool("self.listTools")).outputSource).toBe("declared")
  })
})
