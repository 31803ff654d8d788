/**
 * Switchboard's own MCP endpoint, driven by the MCP SDK's `Client` as an agent would drive it: over
 * streamable HTTP at /mcp and over stdio with `switchboard mcp`, against the contract fixture.
 */
import Database from "better-sqlite3"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { tinyPngBase64 } from "@switchboard/fixtures"
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js"
import { fixtureCommand } from "@switchboard/fixtures"
import { connectOverHttp, connectOverStdio, postMcpExecute } from "../support/mcp-clients.js"
import type { ConnectedClient } from "../support/mcp-clients.js"
import { memoryLogger, startTestServer } from "../support/helpers.js"
import type { WorkerPoolRuntime } from "@switchboard/runtime-quickjs/node"

const connect = { http: connectOverHttp, stdio: connectOverStdio }

/** A 2,000-line listing of 99,999 characters: line i is `entry <i, 5 digits> ` and 37 x's. */
const listingLine = (i: number) => `entry ${String(i).padStart(5, "0")} ${"x".repeat(37)}`
const listing = Array.from({ length: 2000 }, (_, i) => listingLine(i)).join("\n")
const listingScript = `return Array.from({ length: 2000 }, (_, i) => "entry " + String(i).padStart(5, "0") + " " + "x".repeat(37)).join("\\n")`

const texts = (result: CallToolResult) =>
  result.content.map((block) => (block.type === "text" ? block.text : `<${block.type}>`))

/** The read_output arguments that a cut result's last line offers, as a model would pick them up. */
const pointerOf = (result: CallToolResult) => {
  const pointer = texts(result)[0]!.split("\n").pop()!
  return JSON.parse(/read_output (\{[^}]*\})/.exec(pointer)![1]!) as {
    executionId: string
    offset: number
    limit: number
  }
}

/** "7\tfoo" -> [7, "foo"] */
const numbered = (text: string) =>
  text.split("\n").map((row) => {
    const tab = row.indexOf("\t")
    return [Number(row.slice(0, tab)), row.slice(tab + 1)] as const
  })

describe.each(Object.keys(connect) as (keyof typeof connect)[])("MCP over %s", (kind) => {
  let agent: ConnectedClient
  const call = async (name: string, args: Record<string, unknown>) =>
    (await agent.client.callTool({ name, arguments: args })) as CallToolResult
  const execute = (code: string) => call("execute", { code })

  beforeAll(async () => {
    agent = await connect[kind]()
  }, 60_000)

  afterAll(async () => {
    await agent?.close()
  })

  it("lists execute, resume, describe, read_output and grep_output; execute states the contract, approvals and the namespaces", async () => {
    const { tools } = await agent.client.listTools()
    expect(tools.map((t) => t.name).sort()).toEqual(["describe", "execute", "grep_output", "read_output", "resume"])
    const executeTool = tools.find((t) => t.name === "execute")!
    expect(executeTool.description).toContain("`r.data`")
    expect(executeTool.description).toContain("never `r.content[0].text`")
    expect(executeTool.description).toContain("Connected namespaces: contract.")
    expect(executeTool.description).toContain("describe")
    expect(executeTool.description).toContain("resume {executionId}")
    // short enough to be read whole: the approvals sentence took it past the 900 it was held to before
    expect(executeTool.description!.length).toBeLessThan(1100)
    expect(executeTool.inputSchema).toMatchObject({
      type: "object",
      properties: { code: { type: "string" } },
      required: ["code"],
    })
    // limits are listed by name; each is still taken and checked (the next test)
    const limits = (executeTool.inputSchema.properties as Record<string, { description: string }>).limits!
    expect(limits.description).toContain("timeoutMs, memoryBytes")
    expect(limits.description).toContain("maxToolCalls")
    // all of it is in the model's context at every turn: held short (pnpm bench:tokens counts its tokens)
    const listed = JSON.stringify(
      tools.map(({ name, description, inputSchema }) => ({ name, description, inputSchema })),
    )
    expect(listed.length + (agent.client.getInstructions() ?? "").length).toBeLessThan(4000)
  })

  it("limits listed by name are taken: a lowered one applies, an unknown one is named with the ones there are", async () => {
    const script = `for (let i = 0; i < 3; i++) await tools.contract.echo({ message: "m" })
return "all ran"`
    expect(texts(await call("execute", { code: script }))).toEqual(["all ran"])
    const lowered = await call("execute", { code: script, limits: { maxToolCalls: 2 } })
    expect(lowered.isError).toBe(true)
    expect(texts(lowered)[0]).toMatch(/^error \(tool_call_limit\): .*limit of 2/)
    const unknown = await call("execute", { code: script, limits: { maxCalls: 2 } })
    expect(unknown.isError).toBe(true)
    expect(texts(unknown)[0]).toMatch(
      /^invalid arguments: unknown limit "maxCalls"; limits are: timeoutMs, .*maxToolCalls/,
    )
  })

  it("a string result is its own text: newlines, quotes and tabs kept, a lone surrogate replaced, nothing quoted", async () => {
    const result = await execute(String.raw`return "line 1\n\t\"quoted\"\n\uD800 end"`)
    expect(result.isError).toBeFalsy()
    expect(result.content).toEqual([{ type: "text", text: 'line 1\n\t"quoted"\n\uFFFD end' }])
  })

  it("an object result is its JSON, encoded once", async () => {
    const result = await execute(`return { a: 1, list: [1, "two"], nested: { ok: true, text: "say \\"hi\\"" } }`)
    expect(result.isError).toBeFalsy()
    expect(texts(result)).toEqual(['{"a":1,"list":[1,"two"],"nested":{"ok":true,"text":"say \\"hi\\""}}'])
  })

  it("console output follows the result in its own text block", async () => {
    const result = await execute(`console.log("hello", { a: 1 }); console.warn("careful"); return "done"`)
    expect(texts(result)).toEqual(["done", 'logs:\n[log] hello {"a":1}\n[warn] careful'])
  })

  it("a script calls the contract fixture's tools and reads r.data", async () => {
    const result = await execute(
      `const r = await tools.contract.echo({ message: "through MCP" }); return r.ok ? r.data : r.error`,
    )
    expect(texts(result)).toEqual(["through MCP"])
  })

  it("a script that throws gives isError with the error and its logs", async () => {
    const result = await execute(`console.log("before the throw"); throw new Error("boom")`)
    expect(result.isError).toBe(true)
    expect(texts(result)[0]).toMatch(/^error \(runtime_error\).*boom/)
    expect(texts(result)[1]).toBe("logs:\n[log] before the throw")
  })

  it("a 100,000-character listing comes cut with a pointer, then pages and greps by the text's own line numbers", async () => {
    const result = await execute(listingScript)
    expect(result.isError).toBeFalsy()
    const [inline] = texts(result)
    const lines = inline!.split("\n")
    const pointer = lines.pop()!
    expect(pointer).toMatch(
      /^\[output truncated: showing \d+ of 2000 lines \(99999 characters in all\)\. Read the rest with read_output /,
    )
    expect(inline!.length).toBeLessThan(30_000 + pointer.length + 1)
    expect(lines).toEqual(listing.split("\n").slice(0, lines.length))
    const next = pointerOf(result)
    expect(next.offset).toBe(lines.length)

    const page = await call("read_output", { executionId: next.executionId, offset: next.offset, limit: 3 })
    expect(page.isError).toBeFalsy()
    expect(numbered(texts(page)[0]!)).toEqual([0, 1, 2].map((k) => [next.offset + k, listingLine(next.offset + k)]))
    expect(texts(page)[1]).toBe(`[lines ${next.offset}-${next.offset + 2} of 2000; next: offset ${next.offset + 3}]`)

    const tail = await call("read_output", { executionId: next.executionId, offset: 1998, limit: 50 })
    expect(numbered(texts(tail)[0]!)).toEqual([
      [1998, listingLine(1998)],
      [1999, listingLine(1999)],
    ])
    expect(texts(tail)[1]).toBe("[lines 1998-1999 of 2000; end of output]")

    const found = await call("grep_output", { executionId: next.executionId, pattern: "^entry 0(0042|1999) " })
    expect(found.isError).toBeFalsy()
    expect(numbered(texts(found)[0]!)).toEqual([
      [42, listingLine(42)],
      [1999, listingLine(1999)],
    ])
    expect(texts(found)[1]).toBe("[2 matching lines of 2000]")
  })

  it("read_output and grep_output answer an unknown id or a bad pattern with isError and a clear message", async () => {
    const unknown = await call("read_output", { executionId: "no-such-id", offset: 0, limit: 10 })
    expect(unknown).toMatchObject({ isError: true, content: [{ type: "text", text: 'no execution "no-such-id"' }] })
    const id = pointerOf(await execute(`return "z\\n".repeat(20000)`)).executionId
    const bad = await call("grep_output", { executionId: id, pattern: "(" })
    expect(bad.isError).toBe(true)
    expect(texts(bad)[0]).toMatch(/^invalid_pattern: not a valid regular expression/)
    const long = pointerOf(await execute(`return ("z".repeat(1000) + "y\\n").repeat(60)`)).executionId
    const costly = await call("grep_output", { executionId: long, pattern: "(?:z?){1000}z{1000}$" })
    expect(costly.isError).toBe(true)
    expect(texts(costly)[0]).toMatch(/^pattern_too_costly: the search ran past its limit/)
    const oneLine = pointerOf(await execute(`return "q".repeat(40000) + "END"`)).executionId
    const piece = await call("read_output", { executionId: oneLine, offset: 0, charOffset: 36000 })
    expect(texts(piece)[0]).toBe(`0\t${"q".repeat(4000)}…[line 0 continues: 3 more characters from charOffset 40000]`)
    expect(texts(piece)[1]).toBe("[lines 0-0 of 1; next: offset 0, charOffset 40000]")
    expect(texts(await call("read_output", { executionId: oneLine, offset: 0, charOffset: 40000 }))[0]).toBe("0\tEND")
    const badArgs = await call("read_output", { executionId: id, offset: -1 })
    expect(badArgs.isError).toBe(true)
    expect(texts(badArgs)[0]).toMatch(/^invalid arguments: .*offset/s)
  })

  it("describe answers exact paths with TypeScript, and a query with one line per tool naming its path", async () => {
    const byPath = await call("describe", { paths: ["contract.echo", "contract.get-sum", "contract.nope"] })
    expect(byPath.isError).toBeFalsy()
    const [text = "", note] = texts(byPath)
    expect(text.match(/type ToolResult</g)).toHaveLength(1)
    expect(text).toContain("echo(args: Contract_Echo_Input): Promise<ToolResult<Contract_Echo_Data>>")
    expect(text).toContain('"get-sum"(args: Contract_GetSum_Input)')
    expect(note).toContain('no tool "contract.nope"')

    const byQuery = await call("describe", { query: "structured", limit: 5 })
    const [lines = "", footer] = texts(byQuery)
    expect(lines.split("\n")[0]).toMatch(/^contract\.structured — \S/)
    expect(lines).not.toContain("type ToolResult")
    expect(footer).toContain('describe {"paths": [...]}')
    // the path a search line names is the one describe takes, and its declaration has the declared data type
    const declared = await call("describe", { paths: [lines.split("\n")[0]!.split(" — ")[0]!] })
    expect(texts(declared)[0]).toMatch(/type Contract_Structured_Data = \{\n\s+temperature: number/)

    const nothing = await call("describe", { paths: ["contract.nope"] })
    expect(nothing.isError).toBe(true)
  })

  it("an image block a script returns arrives as a native image block, not base64 in text", async () => {
    const result = await call("execute", { code: `return (await tools.contract.image({})).data` })
    expect(result.isError).toBeFalsy()
    expect(result.content).toEqual([
      { type: "text", text: "a tiny image" },
      { type: "image", data: tinyPngBase64, mimeType: "image/png" },
    ])
  })

  it("what a model receives for a string result is shorter than the JSON-quoted string", async () => {
    const code =
      `return ["# Report", "", 'He said "ship it" at 09:00.', "path\\tC:\\\\temp\\\\out", ` +
      `...Array.from({ length: 40 }, (_, i) => '- item ' + i + ': "ok"')].join("\\n")`
    const result = await execute(code)
    const received = texts(result)[0]!
    const quoted = JSON.stringify(received)
    console.log(
      `[${kind}] characters a model receives: ${received.length}; as a JSON-quoted string: ${quoted.length} (${quoted.length - received.length} saved)`,
    )
    expect(received.startsWith('# Report\n\nHe said "ship it"')).toBe(true)
    expect(received.length).toBeLessThan(quoted.length)
  })
})

describe("the /mcp HTTP endpoint", () => {
  it("is stateless: POST answers JSON with no session id; GET and DELETE are 405", async () => {
    const server = await startTestServer()
    try {
      const initialize = await fetch(`${server.url}/mcp`, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "initialize",
          params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
        }),
      })
      expect(initialize.status).toBe(200)
      expect(initialize.headers.get("mcp-session-id")).toBeNull()
      expect(((await initialize.json()) as { result: { serverInfo: { name: string } } }).result.serverInfo.name).toBe(
        "switchboard",
      )
      for (const method of ["GET", "DELETE"]) {
        const response = await fetch(`${server.url}/mcp`, { method, headers: { accept: "text/event-stream" } })
        expect(response.status).toBe(405)
        expect(response.headers.get("allow")).toBe("POST")
      }
    } finally {
      await server.stop()
    }
  })

  it("a body that is not JSON is a JSON-RPC parse error; a chunked body is read; a wrong content type is 415", async () => {
    const server = await startTestServer()
    const post = (body: NonNullable<RequestInit["body"]>, headers: Record<string, string> = {}) =>
      fetch(`${server.url}/mcp`, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
        body,
        duplex: "half",
      } as RequestInit)
    const ping = JSON.stringify({ jsonrpc: "2.0", id: 7, method: "ping" })
    try {
      const broken = await post('{"jsonrpc": "2.0", "id": 1, "method": ')
      expect(broken.status).toBe(400)
      expect(((await broken.json()) as { error: { code: number } }).error.code).toBe(-32700)
      // no content-length: the body arrives in chunks and is counted as it streams
      const chunked = await post(
        new ReadableStream({
          start(controller) {
            const bytes = new TextEncoder().encode(ping)
            controller.enqueue(bytes.slice(0, 10))
            controller.enqueue(bytes.slice(10))
            controller.close()
          },
        }),
      )
      expect(chunked.status).toBe(200)
      expect(await chunked.json()).toEqual({ jsonrpc: "2.0", id: 7, result: {} })
      const wrongType = await post(ping, { "content-type": "text/plain" })
      expect(wrongType.status).toBe(415)
    } finally {
      await server.stop()
    }
  })

  it("past the queue bound an execute is an error result naming overloaded, with nothing stored", async () => {
    const server = await startTestServer({ workers: 1, queue: 1 })
    const callExecute = async (code: string, timeoutMs?: number) =>
      (await (await postMcpExecute(server.url, { code, timeoutMs })).json()) as { result: CallToolResult }
    const pool = server.host.runtime as WorkerPoolRuntime
    const waitFor = (condition: () => boolean) => expect.poll(condition, { timeout: 5000 }).toBe(true)
    try {
      const running = callExecute("while (true) {}", 1500)
      running.catch(() => {})
      await waitFor(() => pool.stats().busy === 1)
      const queued = callExecute("return 'queued'")
      queued.catch(() => {})
      await waitFor(() => pool.stats().queued === 1)
      const { result } = await callExecute("return 'refused'")
      expect(result.isError).toBe(true)
      expect(texts(result)[0]).toMatch(/^error \(overloaded\): every sandbox is busy/)
      expect(result._meta).toMatchObject({ "switchboard/execution": { stored: false } })
      expect(texts((await queued).result)).toEqual(["queued"])
    } finally {
      await server.stop()
    }
  }, 30_000)

  it("a client that hangs up stops its running script, and its request ends there", async () => {
    const { logger, lines } = memoryLogger()
    const server = await startTestServer({ allowStdio: true, logger })
    try {
      expect(
        (
          await server.request("POST", "/v1/sources", {
            namespace: "contract",
            kind: "mcp",
            transport: { type: "stdio", ...fixtureCommand("contract-stdio") },
          })
        ).status,
      ).toBe(201)
      const hangUp = new AbortController()
      const call = postMcpExecute(
        server.url,
        { code: "return await tools.contract.hang({})" },
        { signal: hangUp.signal },
      )
      setTimeout(() => hangUp.abort(), 500)
      await expect(call).rejects.toThrow(/abort/i)
      const db = new Database(server.dbPath, { readonly: true })
      try {
        await expect
          .poll(() => db.prepare("select error_code as code, duration_ms as ms from executions").all(), {
            timeout: 5000,
          })
          .toEqual([{ code: "aborted", ms: expect.any(Number) }])
        const [row] = db.prepare("select duration_ms as ms from executions").all() as { ms: number }[]
        expect(row!.ms).toBeLessThan(5000)
      } finally {
        db.close()
      }
      // the request itself ends too (its log line is written when it does), rather than waiting on an answer that
      // the closed transport will never send
      await expect
        .poll(() => lines.filter((line) => line.message === "request").map((line) => line.details), { timeout: 5000 })
        .toContainEqual(expect.objectContaining({ route: "/mcp", errorCode: "aborted" }))
    } finally {
      await server.stop()
    }
  })
})
