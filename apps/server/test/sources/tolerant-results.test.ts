/**
 * Results and tool lists the MCP SDK's own client would reject whole, sent byte for byte by a raw
 * JSON-RPC fixture server: each reaches the script as a sensible value, and none costs the catalog.
 */
import { writeFileSync } from "node:fs"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { fixtureCommand } from "@switchboard/fixtures"
import { startTestServer, tempDir } from "../support/helpers.js"
import type { TestServer } from "../support/helpers.js"

const RAW_TOOL_COUNT = 9

describe("tolerant of real servers", () => {
  let server: TestServer
  const dir = tempDir()
  const modeFile = join(dir.dir, "mode")

  beforeAll(async () => {
    server = await startTestServer({ allowStdio: true })
    const added = await server.request("POST", "/v1/sources", {
      namespace: "raw",
      kind: "mcp",
      transport: { type: "stdio", ...fixtureCommand("raw-server"), env: { RAW_MODE_FILE: modeFile, RAW_SILENT: "1" } },
    })
    expect(added.status).toBe(201)
    expect(added.body.source.toolCount).toBe(RAW_TOOL_COUNT)
  })
  afterAll(async () => {
    await server?.stop()
    dir.remove()
  })

  it("keeps a tool whose output schema has a remote $ref or is not an object, without that schema", async () => {
    for (const name of ["remote_ref_tool", "array_schema_tool"]) {
      const tool = await server.request("GET", `/v1/tools/raw.${name}`)
      expect(tool.status).toBe(200)
      expect(tool.body.tool.outputSchema).toBeNull()
    }
    expect((await server.request("GET", "/v1/tools/raw.schema_mismatch")).body.tool.outputSchema).toMatchObject({
      required: ["n"],
    })
  })

  it.each([
    ["array structuredContent", "array_structured", { ok: true, data: [1, 2, 3] }],
    [
      "an unknown content block type",
      "unknown_block",
      {
        ok: true,
        data: [
          { type: "widget", foo: 1 },
          { type: "text", text: "after" },
        ],
      },
    ],
    [
      "an image with bad base64",
      "bad_base64",
      { ok: true, data: [{ type: "image", data: "!!!not base64!!!", mimeType: "image/png" }] },
    ],
    ["a missing content field", "missing_content", { ok: true, data: { a: 1 } }],
    ["an empty result", "no_content", { ok: true, data: null }],
  ])("%s", async (_name, tool, expected) => {
    const response = await server.execute(`return await tools.raw.${tool}({})`)
    expect(response.result).toEqual(expected)
  })

  it("structuredContent that fails its output schema is delivered, and the mismatch is recorded", async () => {
    const response = await server.execute(`return await tools.raw.schema_mismatch({})`)
    expect(response.result).toEqual({ ok: true, data: { n: "not a number" } })
    const record = await server.request("GET", `/v1/executions/${response.executionId}`)
    expect(record.body.execution.calls[0].outputSchemaError).toMatch(/\/n/)
    const good = await server.execute(`return await tools.raw.ok_tool({})`)
    const goodRecord = await server.request("GET", `/v1/executions/${good.executionId}`)
    expect(goodRecord.body.execution.calls[0].outputSchemaError).toBeNull()
  })

  it("a tools/list page that fails mid-way keeps the old catalog and sets syncError", async () => {
    writeFileSync(modeFile, "fail_page_2")
    const sync = await server.request("POST", "/v1/sources/raw/sync")
    expect(sync.status).toBe(502)
    expect(sync.body.error.message).toMatch(/page 2 is unavailable/)
    const [source] = (await server.request("GET", "/v1/sources")).body.sources
    expect(source).toMatchObject({ namespace: "raw", status: "error", toolCount: RAW_TOOL_COUNT })
    expect(source.syncError).toMatch(/page 2 is unavailable/)
    expect((await server.execute(`return (await tools.raw.ok_tool({})).data`)).result).toBe("ok")

    writeFileSync(modeFile, "")
    const healed = await server.request("POST", "/v1/sources/raw/sync")
    expect(healed.body.source).toMatchObject({ status: "ready", syncError: null, toolCount: RAW_TOOL_COUNT })
  })
})
