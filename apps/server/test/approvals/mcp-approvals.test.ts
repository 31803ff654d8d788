/**
 * Issue 18 over MCP, with real parts: the MCP SDK's `Client`, `switchboard mcp` (stdio) or a real server's /mcp,
 * the contract fixture as the upstream MCP server, and a `require_approval` policy on its `prose` tool.
 *
 * - stdio, a client that declares elicitation: one `execute` call asks its person, and answers the resumed run
 *   (approve: the call ran; decline: the script saw `ok: false`, code `declined`, and the note).
 * - streamable HTTP (stateless: it cannot ask, whatever the client declares): `execute` answers the paused text,
 *   a person approves over HTTP (POST /v1/approvals/:id), and `resume` answers the result.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js"
import type { CallToolResult, ElicitRequest, ElicitResult } from "@modelcontextprotocol/sdk/types.js"
import { tinyPngBase64 } from "@switchboard/fixtures"
import { connectOverHttp, connectOverStdio } from "../support/mcp-clients.js"
import type { ConnectedClient } from "../support/mcp-clients.js"
import type { TestServer } from "../support/helpers.js"

const policy = { pattern: "contract.prose", action: "require_approval", reason: "a greeting needs a person" }

/** Logs before and after the paused call, an image emitted after it, and what the call resolved to. */
const script = `
  console.log("asking")
  const r = await tools.contract.prose({ name: "Ada" })
  console.log("answered")
  emit({ type: "image", data: "${tinyPngBase64}", mimeType: "image/png" })
  return r.ok ? r.data : { ok: r.ok, code: r.error.code, message: r.error.message }
`

const texts = (result: CallToolResult) =>
  result.content.map((block) => (block.type === "text" ? block.text : `<${block.type}>`))

/** `_meta["switchboard/execution"]` of an execute or resume result */
const metaOf = (result: CallToolResult) =>
  (result._meta as Record<string, { executionId: string; approvalId?: string; status?: string }>)[
    "switchboard/execution"
  ]!

/** A client whose person answers each question with the next answer given, and which keeps what it was asked. */
const elicitingClient = () => {
  const answers: ElicitResult[] = []
  const asked: ElicitRequest["params"][] = []
  const client = new Client(
    { name: "switchboard-test-agent", version: "1.0.0" },
    { capabilities: { elicitation: { form: {} } } },
  )
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    asked.push(request.params)
    return answers.shift() ?? { action: "cancel" }
  })
  return { client, answers, asked }
}

describe("MCP execute over a pause, stdio, a client that declares elicitation", () => {
  let agent: ConnectedClient
  const person = elicitingClient()
  const execute = async () =>
    (await agent.client.callTool({ name: "execute", arguments: { code: script } })) as CallToolResult

  beforeAll(async () => {
    agent = await connectOverStdio({ client: person.client, policies: [policy] })
  }, 60_000)
  afterAll(() => agent?.close())

  it("approve: one execute call asks the person and returns the final result, rendered as execute renders a run", async () => {
    person.answers.push({ action: "accept", content: { decision: "approve" } })
    const result = await execute()
    expect(person.asked).toHaveLength(1)
    expect(person.asked[0]!.message).toMatch(
      /^Approve contract\.prose with these arguments\?\n\{\n {2}"name": "Ada"\n\}\nReason: a greeting needs a person \(policy [0-9a-f-]{36}: path contract\.prose\)\. Undecided by \d{4}-\d\d-\d\dT[\d:.]+Z, it counts as declined\.$/,
    )
    expect(result.isError, texts(result).join("\n") + agent.stderr()).toBeFalsy()
    expect(result.content).toEqual([
      { type: "text", text: "Hello, Ada! It is sunny." },
      { type: "text", text: "logs:\n[log] asking\n[log] answered" },
      { type: "image", data: tinyPngBase64, mimeType: "image/png" },
    ])
    expect(result._meta).toEqual({ "switchboard/execution": { stored: true, executionId: expect.any(String) } })
  }, 60_000)

  it("decline, with a note: the script sees ok: false, code declined, and its result says so", async () => {
    person.asked.length = 0
    person.answers.push({ action: "accept", content: { decision: "decline", note: "not today" } })
    const result = await execute()
    expect(person.asked).toHaveLength(1)
    expect(result.isError).toBeFalsy()
    expect(JSON.parse(texts(result)[0]!)).toEqual({
      ok: false,
      code: "declined",
      message: "contract.prose was not run: a person declined it: not today",
    })
  }, 60_000)

  it("dismissed: the approval stays pending, and the answer is the paused text with the way to go on", async () => {
    person.asked.length = 0
    person.answers.push({ action: "cancel" })
    const result = await execute()
    expect(person.asked).toHaveLength(1)
    expect(result.isError).toBeFalsy()
    const text = texts(result)[0]!
    expect(text).toMatch(
      /^paused: .*\nThe question in your client was dismissed without an answer\. The approval is still pending\./,
    )
    expect(text).toContain('waiting: contract.prose with {"name":"Ada"}')
    const { executionId, approvalId } = metaOf(result)
    expect(text).toContain(`call resume {"executionId":"${executionId}"}`)
    expect(text).toContain(`POST /v1/approvals/${approvalId}`)
  }, 60_000)
})

describe("MCP execute over a pause, stateless streamable HTTP", () => {
  let agent: ConnectedClient & { server: TestServer }
  // it declares elicitation: the stateless endpoint cannot ask all the same
  const person = elicitingClient()

  beforeAll(async () => {
    agent = await connectOverHttp({ client: person.client, policies: [policy] })
  }, 60_000)
  afterAll(() => agent?.close())

  it("answers the paused text; a person approves over HTTP; resume returns the result", async () => {
    const paused = (await agent.client.callTool({ name: "execute", arguments: { code: script } })) as CallToolResult
    expect(person.asked).toEqual([])
    // waiting, not failed
    expect(paused.isError).toBeFalsy()
    const meta = metaOf(paused)
    expect(meta).toMatchObject({ stored: true, status: "paused" })
    const { executionId, approvalId } = meta
    // (no check of the paused run's logs: the worker pool's runtime answers a run stopped at a pause without them)
    const [text] = texts(paused)
    expect(text).toContain("paused: the script waits for a person to approve a tool call; it has not failed")
    expect(text).toContain('waiting: contract.prose with {"name":"Ada"}')
    expect(text).toContain("reason: a greeting needs a person")
    expect(text).toContain(`approval: ${approvalId}, expires `)
    expect(text).toContain(`execution: ${executionId}`)
    expect(text).toContain(`switchboard approvals approve ${approvalId}`)

    const pending = await agent.server.request("GET", `/v1/executions/${executionId}`)
    expect(pending.body).toMatchObject({ execution: { status: "paused" }, approval: { id: approvalId } })

    // resume waits for the decision, which a person takes over HTTP meanwhile
    const resumed = agent.client.callTool({ name: "resume", arguments: { executionId } }) as Promise<CallToolResult>
    await new Promise((resolve) => setTimeout(resolve, 300))
    const decided = await agent.server.request("POST", `/v1/approvals/${approvalId}`, { decision: "approve" })
    expect(decided.status, JSON.stringify(decided.body)).toBe(200)
    const result = await resumed
    expect(result.isError, texts(result).join("\n")).toBeFalsy()
    expect(texts(result)).toEqual(["Hello, Ada! It is sunny.", "logs:\n[log] asking\n[log] answered", "<image>"])
    expect(result._meta).toEqual({ "switchboard/execution": { stored: true, executionId } })

    // once ended, resume answers its stored result: the text and logs (a record keeps no media)
    const again = (await agent.client.callTool({ name: "resume", arguments: { executionId } })) as CallToolResult
    expect(texts(again)).toEqual(["Hello, Ada! It is sunny.", "logs:\n[log] asking\n[log] answered"])
    expect(person.asked).toEqual([])
  }, 90_000)
})
