/**
 * `execute` over a pause and the `resume` tool, in memory, with stand-in services: what the model reads, what the
 * client's person is asked, and what is decided. The end-to-end suite, on a real server with a real MCP source, is
 * apps/server/test/approvals/mcp-approvals.test.ts.
 */
import { describe, expect, it } from "vitest"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js"
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js"
import type { CallToolResult, ElicitRequest, ElicitResult } from "@modelcontextprotocol/sdk/types.js"
import type * as Catalog from "@switchboard/core/catalog"
import type * as Executor from "@switchboard/core/executor"
import type * as Approvals from "@switchboard/core/approvals"
import { createMcpServer } from "../src/mcp/index.js"
import type { McpServerOptions, McpServices } from "../src/mcp/index.js"

const EXPIRES = Date.parse("2030-01-01T00:00:00.000Z")

const approvalRow = (id: string, over: Partial<Catalog.ApprovalRow> = {}): Catalog.ApprovalRow => ({
  id,
  executionId: "e1",
  toolPath: "fs.write_file",
  args: { path: "/tmp/x", content: "hello" },
  reason: "the tool declares destructiveHint: true (the default policy)",
  ruleId: null,
  status: "pending",
  note: null,
  keyId: null,
  createdAt: 0,
  expiresAt: EXPIRES,
  decidedAt: null,
  decidedBy: null,
  resumeLeaseUntil: null,
  resumePastPauseAt: null,
  resumedAt: null,
  replay: null,
  ...over,
})

const paused = (
  approvalId: string,
  tool = "fs.write_file",
  args: unknown = { path: "/tmp/x", content: "hello" },
): Executor.ExecuteResponse => ({
  executionId: "e1",
  stored: true,
  status: "paused",
  message: `paused before ${tool}`,
  approval: {
    id: approvalId,
    tool,
    args,
    reason: "needs a person",
    expiresAt: EXPIRES,
  },
  logs: [{ level: "log", message: "before the write" }],
})

const finished: Executor.ExecuteResponse = {
  executionId: "e1",
  stored: true,
  ok: true,
  result: "written",
  text: "written",
  logs: [{ level: "log", message: "after the write" }],
}

const stub = (
  over: {
    response?: Executor.ExecuteResponse
    /** what each wait answers, in turn */
    waits?: ((approval: Catalog.ApprovalRow) => Approvals.ApprovalWait)[]
    stored?: Partial<Catalog.StoredExecution> | null
    approvals?: Catalog.ApprovalRow[]
  } = {},
) => {
  const decisions: { id: string; body: unknown }[] = []
  const waited: string[] = []
  const waits = [...(over.waits ?? [])]
  const services = {
    logger: { error: () => {}, warn: () => {}, info: () => {} },
    sources: { ensureFreshNamespace: async () => {} },
    store: {
      listSources: async () => [],
      getExecution: async (id: string) =>
        over.stored ? ({ id, keyId: null, logs: [], calls: [], ...over.stored } as Catalog.StoredExecution) : null,
    },
    executor: {
      parse: (body: unknown) => ({ ok: true as const, value: body }),
      run: async () => over.response ?? paused("a1"),
    },
    approvals: {
      decide: async (_caller: unknown, id: string, body: { decision: string; note?: string }) => {
        decisions.push({ id, body })
        const status = body.decision === "approve" ? "approved" : "declined"
        return { ok: true, value: approvalRow(id, { status, note: body.note ?? null, decidedAt: 1 }) }
      },
      get: async (_caller: unknown, id: string) => approvalRow(id),
      list: async () => over.approvals ?? [],
      wait: async (approval: Catalog.ApprovalRow) => {
        waited.push(approval.id)
        const next = waits.shift()
        return next ? next(approval) : { approval }
      },
    },
  }
  return { services: services as unknown as McpServices, decisions, waited }
}

const connect = async (
  services: McpServices,
  answer?: (request: ElicitRequest) => ElicitResult | Promise<ElicitResult>,
  options?: McpServerOptions,
) => {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
  await createMcpServer(services, undefined, options).connect(serverSide)
  const asked: ElicitRequest["params"][] = []
  const client = new Client(
    { name: "test", version: "1" },
    { capabilities: answer ? { elicitation: { form: {} } } : {} },
  )
  if (answer)
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params)
      return answer(request)
    })
  await client.connect(clientSide)
  const call = async (name: string, args: Record<string, unknown>) =>
    (await client.callTool({ name, arguments: args })) as CallToolResult
  return { call, asked }
}

const texts = (result: CallToolResult) =>
  result.content.map((block) => (block.type === "text" ? block.text : block.type))

const resumedWith =
  (response: Executor.ExecuteResponse) =>
  (approval: Catalog.ApprovalRow): Approvals.ApprovalWait => ({ approval: { ...approval, resumedAt: 2 }, response })

describe("execute over a pause", () => {
  it("answers a client that cannot be asked with the paused text: what waits, its ids, how to go on; not an error", async () => {
    const { services, decisions } = stub()
    const { call } = await connect(services)
    const result = await call("execute", { code: "..." })
    expect(result.isError).toBeFalsy()
    const [text, logs] = texts(result)
    expect(text).toContain("paused: the script waits for a person to approve a tool call; it has not failed")
    expect(text).toContain('waiting: fs.write_file with {"path":"/tmp/x","content":"hello"}')
    expect(text).toContain("reason: needs a person")
    expect(text).toContain("approval: a1, expires 2030-01-01T00:00:00.000Z")
    expect(text).toContain("execution: e1")
    expect(text).toContain('POST /v1/approvals/a1 with {"decision":"approve"}')
    expect(text).toContain("`switchboard approvals approve a1`")
    expect(text).toContain('call resume {"executionId":"e1"}')
    expect(logs).toBe("logs:\n[log] before the write")
    expect(result._meta).toEqual({
      "switchboard/execution": { stored: true, executionId: "e1", status: "paused", approvalId: "a1" },
    })
    expect(decisions).toEqual([])
  })

  it("asks a client that declared elicitation, decides as its person answered, and answers the resumed run in the same call", async () => {
    const { services, decisions } = stub({ waits: [resumedWith(finished)] })
    const { call, asked } = await connect(services, () => ({ action: "accept", content: { decision: "approve" } }))
    const result = await call("execute", { code: "..." })
    expect(asked).toHaveLength(1)
    expect(asked[0]!.message).toBe(
      'Approve fs.write_file with these arguments?\n{\n  "path": "/tmp/x",\n  "content": "hello"\n}\n' +
        "Reason: needs a person. Undecided by 2030-01-01T00:00:00.000Z, it counts as declined.",
    )
    expect((asked[0] as { requestedSchema?: unknown }).requestedSchema).toMatchObject({
      type: "object",
      properties: { decision: { type: "string", enum: ["approve", "decline"] }, note: { type: "string" } },
      required: ["decision"],
    })
    expect(decisions).toEqual([{ id: "a1", body: { decision: "approve" } }])
    // rendered as execute renders a finished run
    expect(result).toEqual({
      content: [
        { type: "text", text: "written" },
        { type: "text", text: "logs:\n[log] after the write" },
      ],
      _meta: { "switchboard/execution": { stored: true, executionId: "e1" } },
    })
  })

  it("a long harmless field first does not hide the rest: the paused text shows each field, names the one it cut and where to read all", async () => {
    const args = { memo: "thanks for lunch ".repeat(3_000), to: "mallory@evil.example", amount: 1_000_000 }
    const { services } = stub({ response: paused("a1", "bank.transfer", args) })
    const { call } = await connect(services)
    const [text] = texts(await call("execute", { code: "..." }))
    expect(text).toMatch(
      /^waiting: bank\.transfer with \{"memo":"thanks for lunch .*…\(51002 chars\),"to":"mallory@evil\.example","amount":1000000\}$/m,
    )
    expect(text).toContain(
      "not shown whole: memo; the whole arguments: GET /v1/approvals/a1, or `switchboard approvals show a1` on the host",
    )
  })

  it("never asks a person to approve arguments the question cannot show whole: it answers the paused text, saying why", async () => {
    const args = { memo: "m".repeat(20_000), to: "mallory" }
    const { services, decisions } = stub({ response: paused("a1", "bank.transfer", args) })
    const { call, asked } = await connect(services, () => ({ action: "accept", content: { decision: "approve" } }))
    const [text] = texts(await call("execute", { code: "..." }))
    expect(asked).toEqual([])
    expect(decisions).toEqual([])
    expect(text).toContain(
      "The call's arguments are too long to show whole in a question; read them at GET /v1/approvals/a1",
    )
    expect(text).toContain("The approval is still pending.")
  })

  it("escapes bidi and control characters in the question and the paused text", async () => {
    const args = { to: "moc.live@\u202eyrallam", note: "line\u2028break\u0007" }
    const { services } = stub({ response: paused("a1", "bank.transfer", args) })
    const { call, asked } = await connect(services, () => ({ action: "cancel" }))
    const [text] = texts(await call("execute", { code: "..." }))
    expect(asked[0]!.message).toContain('"to": "moc.live@\\u202eyrallam"')
    expect(asked[0]!.message).toContain('"note": "line\\u2028break\\u0007"')
    expect(text).toContain(
      'waiting: bank.transfer with {"to":"moc.live@\\u202eyrallam","note":"line\\u2028break\\u0007"}',
    )
    for (const shown of [asked[0]!.message, text!])
      expect(shown).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u2028\u202e]/)
  })

  it("asks again when the resumed run pauses again, and passes a note on", async () => {
    const { services, decisions } = stub({ waits: [resumedWith(paused("a2", "fs.delete")), resumedWith(finished)] })
    const answers: ElicitResult[] = [
      { action: "accept", content: { decision: "approve" } },
      { action: "accept", content: { decision: "decline", note: "not that one" } },
    ]
    const { call, asked } = await connect(services, () => answers.shift()!)
    const result = await call("execute", { code: "..." })
    expect(asked.map((a) => a.message.split(" with ")[0])).toEqual(["Approve fs.write_file", "Approve fs.delete"])
    expect(decisions).toEqual([
      { id: "a1", body: { decision: "approve" } },
      { id: "a2", body: { decision: "decline", note: "not that one" } },
    ])
    expect(texts(result)[0]).toBe("written")
  })

  it("declines when the person declines the question itself", async () => {
    const { services, decisions } = stub({ waits: [resumedWith(finished)] })
    const { call } = await connect(services, () => ({ action: "decline" }))
    await call("execute", { code: "..." })
    expect(decisions).toEqual([{ id: "a1", body: { decision: "decline" } }])
  })

  it("leaves the approval pending when the question is dismissed, or cannot be asked, and answers the paused text", async () => {
    for (const answer of [
      (): ElicitResult => ({ action: "cancel" }),
      (): ElicitResult => {
        throw new Error("no person here")
      },
    ]) {
      const { services, decisions } = stub()
      const { call } = await connect(services, answer)
      const result = await call("execute", { code: "..." })
      expect(result.isError).toBeFalsy()
      expect(texts(result)[0]).toMatch(
        /^paused: .*\n(The question in your client was dismissed|Asking in your client failed)/,
      )
      expect(texts(result)[0]).toContain("The approval is still pending.")
      expect(decisions).toEqual([])
    }
  })

  it("never asks where the server was told not to (the stateless HTTP endpoint)", async () => {
    const { services } = stub()
    const { call, asked } = await connect(services, () => ({ action: "accept", content: { decision: "approve" } }), {
      elicitation: false,
    })
    expect(texts(await call("execute", { code: "..." }))[0]).toMatch(/^paused: /)
    expect(asked).toEqual([])
  })
})

describe("resume", () => {
  it("answers an execution that already ended with its stored result", async () => {
    const { services } = stub({ stored: { status: "ok", resultText: "done", logs: [] } })
    const { call } = await connect(services)
    expect(await call("resume", { executionId: "e1" })).toEqual({
      content: [{ type: "text", text: "done" }],
      _meta: { "switchboard/execution": { stored: true, executionId: "e1" } },
    })
    const failed = stub({ stored: { status: "error", resultText: null, errorCode: "declined", errorMessage: "no" } })
    const answered = await (await connect(failed.services)).call("resume", { executionId: "e1" })
    expect(answered).toMatchObject({ isError: true, content: [{ text: "error (declined): no" }] })
  })

  it("waits for the decision and answers the resumed run; past the wait, says it still waits", async () => {
    const { services, waited } = stub({
      stored: { status: "paused", resultText: null },
      approvals: [approvalRow("a1")],
      waits: [resumedWith(finished)],
    })
    const { call } = await connect(services)
    expect(texts(await call("resume", { executionId: "e1" }))[0]).toBe("written")
    const still = await call("resume", { executionId: "e1" })
    expect(waited).toEqual(["a1", "a1"])
    expect(still.isError).toBeFalsy()
    expect(texts(still)[0]).toMatch(/^still waiting: approval a1 of fs.write_file is not decided yet/)
    expect(texts(still)[0]).toContain('Call resume {"executionId":"e1"} again')
  })

  it("is no execution for an unknown id", async () => {
    const { call } = await connect(stub().services)
    expect(await call("resume", { executionId: "nope" })).toMatchObject({
      isError: true,
      content: [{ text: 'no execution "nope"' }],
    })
  })
})
