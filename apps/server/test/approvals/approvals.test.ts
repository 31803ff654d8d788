/**
 * Policies and approvals end to end (issue 18), on a real server over SQLite and over Postgres, with real MCP
 * servers: the ledger fixture (every call that reaches it is a line in a file, so a test counts them) and
 * @modelcontextprotocol/server-filesystem, whose write_file declares destructiveHint. A script pauses before a
 * call that needs a person, is approved or declined over HTTP, and resumes by replay: the calls it made before the
 * pause are answered from the record and never reach upstream twice.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { createRequire } from "node:module"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest"
import { fixtureCommand } from "@switchboard/fixtures"
import { startTestServer } from "../support/helpers.js"
import type { DatabaseKind, TestServer } from "../support/helpers.js"

const require = createRequire(import.meta.url)

let scratch: string
beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), "approvals-"))
})
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

let ledgerCount = 0
/** a fresh ledger file, and the source body that makes a ledger server write to it */
const ledgerSource = () => {
  const file = join(scratch, `ledger-${++ledgerCount}.txt`)
  const { command, args } = fixtureCommand("ledger-server")
  return {
    file,
    body: { namespace: "ledger", kind: "mcp", transport: { type: "stdio", command, args, env: { LEDGER_FILE: file } } },
  }
}

/** the calls that reached the ledger server, by tool */
const ledgerCalls = (file: string) => {
  let text = ""
  try {
    text = readFileSync(file, "utf8")
  } catch {}
  const counts: Record<string, number> = {}
  for (const line of text.split("\n").filter(Boolean)) {
    const tool = line.slice(0, line.indexOf(" "))
    counts[tool] = (counts[tool] ?? 0) + 1
  }
  return counts
}

const TICK_THEN_WRITE = `
  const first = await tools.ledger.tick({ label: "before" })
  const wrote = await tools.ledger.write({ text: "hello" })
  const after = await tools.ledger.tick({ label: "after" })
  return { first: first.data, wrote: wrote.ok ? wrote.data : wrote.error, after: after.data }
`

describe.each<DatabaseKind>(["sqlite", "postgres"])("approvals on %s", (database) => {
  let server: TestServer
  let ledger: ReturnType<typeof ledgerSource>

  const start = async (extra: Parameters<typeof startTestServer>[0] = {}) => {
    server = await startTestServer({ database, allowStdio: true, runtime: "in-thread", ...extra })
    ledger = ledgerSource()
    const added = await server.request("POST", "/v1/sources", ledger.body)
    expect(added.status).toBe(201)
  }
  afterEach(async () => server?.stop())

  const pause = async (code = TICK_THEN_WRITE) => {
    const response = await server.request("POST", "/v1/execute", { code })
    expect(response.status).toBe(202)
    return response.body
  }

  it("a destructive call pauses the run by default; approving it resumes the run, which ends ok", async () => {
    await start()
    const paused = await pause()
    expect(paused).toMatchObject({
      status: "paused",
      stored: true,
      message: expect.stringMatching(/^paused before ledger\.write: it needs a person's approval \(/),
      approval: { tool: "ledger.write", args: { text: "hello" } },
    })
    // nothing failed and nothing ended: the 202 says what happened by its status alone
    expect(paused).not.toHaveProperty("ok")
    expect(paused).not.toHaveProperty("error")
    expect(paused.approval.reason).toContain("destructiveHint")
    expect(paused.approval.expiresAt).toBeGreaterThan(Date.now() + 50 * 60_000)
    // the call that needs a person did not run; the one before it did, once
    expect(ledgerCalls(ledger.file)).toEqual({ tick: 1 })

    const listed = await server.request("GET", "/v1/approvals")
    expect(listed.body.approvals.map((a: { id: string }) => a.id)).toEqual([paused.approval.id])
    const execution = await server.request("GET", `/v1/executions/${paused.executionId}`)
    expect(execution.body.execution.status).toBe("paused")
    expect(execution.body.approval.id).toBe(paused.approval.id)

    const decided = await server.request("POST", `/v1/approvals/${paused.approval.id}?wait=30s`, {
      decision: "approve",
    })
    expect(decided.status).toBe(200)
    expect(decided.body.approval.status).toBe("approved")
    expect(decided.body.execution).toMatchObject({ id: paused.executionId, status: "ok" })
    expect(JSON.parse(decided.body.execution.resultText)).toEqual({
      first: { n: 1 },
      wrote: { written: "hello", n: 1 },
      after: { n: 2 },
    })
    // replayed, not called again: tick reached upstream once before the pause and once after
    expect(ledgerCalls(ledger.file)).toEqual({ tick: 2, write: 1 })
    expect((await server.request("GET", "/v1/approvals")).body.approvals).toEqual([])
    // the record holds every call that reached a source, over both runs
    expect(decided.body.execution.calls.map((c: { toolPath: string }) => c.toolPath)).toEqual([
      "ledger.tick",
      "ledger.write",
      "ledger.tick",
    ])
  })

  it("a decline resolves the call to ok: false, declined, with the note; the script goes on", async () => {
    await start()
    const paused = await pause()
    const decided = await server.request("POST", `/v1/approvals/${paused.approval.id}?wait=30s`, {
      decision: "decline",
      note: "not on a Friday",
    })
    expect(decided.body.execution.status).toBe("ok")
    const result = JSON.parse(decided.body.execution.resultText)
    expect(result.wrote.code).toBe("declined")
    expect(result.wrote.message).toContain("not on a Friday")
    expect(ledgerCalls(ledger.file)).toEqual({ tick: 2 })
    // deciding twice is a conflict
    const again = await server.request("POST", `/v1/approvals/${paused.approval.id}`, { decision: "approve" })
    expect(again.status).toBe(409)
  })

  it("an approval nobody decides expires, which is a decline", async () => {
    await start({ approvalTtlMs: 300, approvalSweepMs: 100 })
    const paused = await pause()
    let execution: { status: string; resultText: string | null } | undefined
    for (let i = 0; i < 100 && execution?.status !== "ok"; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100))
      execution = (await server.request("GET", `/v1/executions/${paused.executionId}`)).body.execution
    }
    expect(execution?.status).toBe("ok")
    const result = JSON.parse(execution!.resultText!)
    expect(result.wrote).toMatchObject({ code: "declined" })
    expect(result.wrote.message).toContain("expired")
    const approval = (await server.request("GET", `/v1/approvals/${paused.approval.id}`)).body.approval
    expect(approval.status).toBe("expired")
    const late = await server.request("POST", `/v1/approvals/${paused.approval.id}`, { decision: "approve" })
    expect(late.status).toBe(409)
  })

  it("a block rule answers ok: false, blocked, naming the rule; the call never reaches the source", async () => {
    await start()
    const rule = await server.request("POST", "/v1/policies", {
      pattern: "ledger.t*",
      action: "block",
      reason: "no ticking",
    })
    expect(rule.status).toBe(201)
    const response = await server.execute(`return await tools.ledger.tick({})`)
    expect(response.result).toMatchObject({
      ok: false,
      error: { code: "blocked", data: { rule: { id: rule.body.policy.id } } },
    })
    expect(response.result.error.message).toContain("no ticking")
    expect(ledgerCalls(ledger.file)).toEqual({})
    // describe tells the model before it writes the call
    const described = await server.request("POST", "/v1/describe", { paths: ["ledger.tick", "ledger.write"] })
    expect(described.body.typescript).toMatch(/blocked/i)
    expect(described.body.typescript).toMatch(/approval/i)
    // removed, the tool runs again
    expect((await server.request("DELETE", `/v1/policies/${rule.body.policy.id}`)).status).toBe(204)
    expect((await server.execute(`return (await tools.ledger.tick({})).data`)).result).toEqual({ n: 1 })
  })

  it("rules match annotations; an explicit allow beats the destructive default", async () => {
    await start()
    await server.request("POST", "/v1/policies", { annotation: "openWorldHint", action: "block" })
    await server.request("POST", "/v1/policies", { annotation: "readOnlyHint", action: "require_approval" })
    await server.request("POST", "/v1/policies", { pattern: "ledger.write", action: "allow" })
    const response = await server.execute(`
      const open = await tools.ledger.fetch_url({ url: "https://example.com" })
      const idem = await tools.ledger.upsert({ k: "a" })
      const write = await tools.ledger.write({ text: "w" })
      return { open: open.ok ? "ran" : open.error.code, idem: idem.ok, write: write.ok }
    `)
    expect(response.result).toEqual({ open: "blocked", idem: true, write: true })
    const paused = await pause(`return (await tools.ledger.lookup({ q: "x" })).data`)
    expect(paused.approval.tool).toBe("ledger.lookup")
  })

  it("a call in flight beside the paused one finishes and is recorded: the resume does not make it again", async () => {
    await start()
    const paused = await pause(`
      const [w, t] = await Promise.all([tools.ledger.write({ text: "p" }), tools.ledger.tick({ label: "beside" })])
      return { w: w.ok, t: t.data }
    `)
    expect(ledgerCalls(ledger.file)).toEqual({ tick: 1 })
    const decided = await server.request("POST", `/v1/approvals/${paused.approval.id}?wait=30s`, {
      decision: "approve",
    })
    expect(JSON.parse(decided.body.execution.resultText)).toEqual({ w: true, t: { n: 1 } })
    expect(ledgerCalls(ledger.file)).toEqual({ tick: 1, write: 1 })
  })

  it("a run that reaches a second call needing approval pauses again, with a new approval", async () => {
    await start()
    const paused = await pause(`
      await tools.ledger.write({ text: "one" })
      await tools.ledger.tick({ label: "between" })
      await tools.ledger.write({ text: "two" })
      return "both"
    `)
    const first = await server.request("POST", `/v1/approvals/${paused.approval.id}?wait=30s`, {
      decision: "approve",
    })
    expect(first.body.execution.status).toBe("paused")
    expect(first.body.next).toMatchObject({ tool: "ledger.write", args: { text: "two" }, status: "pending" })
    const second = await server.request("POST", `/v1/approvals/${first.body.next.id}?wait=30s`, {
      decision: "approve",
    })
    expect(second.body.execution).toMatchObject({ status: "ok", resultText: "both", toolCallCount: 3 })
    expect(ledgerCalls(ledger.file)).toEqual({ write: 2, tick: 1 })
  })

  it("two calls needing approval at once pause the run at once, not at its time limit; the resume asks for the other", async () => {
    await start()
    // a run held until its time limit would answer 202 only after 60 s: past this test's own timeout
    const response = await server.request("POST", "/v1/execute", {
      code: `const [a, b] = await Promise.all([tools.ledger.write({ text: "a" }), tools.ledger.write({ text: "b" })])
        return [a.ok, b.ok]`,
      limits: { timeoutMs: 60_000 },
    })
    expect(response.status).toBe(202)
    expect(response.body.approval.tool).toBe("ledger.write")
    const first = await server.request("POST", `/v1/approvals/${response.body.approval.id}?wait=30s`, {
      decision: "approve",
    })
    expect(first.body.next.tool).toBe("ledger.write")
    // one approval for each write, whichever reached the policy first
    expect([response.body.approval.args.text, first.body.next.args.text].sort()).toEqual(["a", "b"])
    const second = await server.request("POST", `/v1/approvals/${first.body.next.id}?wait=30s`, {
      decision: "approve",
    })
    expect(second.body.execution).toMatchObject({ status: "ok", resultText: "[true,true]" })
    expect(ledgerCalls(ledger.file)).toEqual({ write: 2 })
  }, 30_000)

  it("arguments that can never run are refused at once, not after a person approves them", async () => {
    await start()
    const response = await server.request("POST", "/v1/execute", {
      code: `const r = await tools.ledger.write([1, 2]); return r.ok ? "ran" : r.error.code`,
    })
    expect(response.status).toBe(200)
    expect(response.body.result).toBe("invalid_arguments")
    expect((await server.request("GET", "/v1/approvals")).body.approvals).toEqual([])
  })

  it("a wrong rule, decision or wait is a 400 naming what is wrong, and changes nothing", async () => {
    await start()
    const rule = await server.request("POST", "/v1/policies", { pattern: "ledger.*", action: "never" })
    expect(rule.status).toBe(400)
    expect(rule.body.error.message).toContain('"action" must be one of allow, require_approval, block')
    const unknownField = await server.request("POST", "/v1/policies", { pattern: "a.*", action: "block", tool: "x" })
    expect(unknownField.status).toBe(400)
    expect(unknownField.body.error.message).toContain('unknown field "tool"')
    expect((await server.request("GET", "/v1/policies")).body.policies).toEqual([])
    const paused = await pause()
    const decision = await server.request("POST", `/v1/approvals/${paused.approval.id}`, { decision: "maybe" })
    expect(decision.status).toBe(400)
    expect(decision.body.error.message).toContain('"decision" must be "approve" or "decline"')
    const wait = await server.request("POST", `/v1/approvals/${paused.approval.id}?wait=forever`, {
      decision: "approve",
    })
    expect(wait.status).toBe(400)
    expect(wait.body.error.message).toContain("wait must be a duration")
    expect((await server.request("GET", `/v1/approvals/${paused.approval.id}`)).body.approval.status).toBe("pending")
    expect((await server.request("POST", "/v1/approvals/no-such-id", { decision: "approve" })).status).toBe(404)
  })

  it("approvals turned off let a destructive call run", async () => {
    await start({ approvals: false })
    const response = await server.execute(`return (await tools.ledger.write({ text: "t" })).data`)
    expect(response.result).toEqual({ written: "t", n: 1 })
  })

  it("a resume replays Date and Math.random: a script that puts them in a call's arguments resumes", async () => {
    await start()
    const code = `
      const stamp = Date.now() + ":" + Math.random() + ":" + new Date().toISOString()
      await tools.ledger.tick({ label: stamp })
      await tools.ledger.write({ text: "w" })
      await tools.ledger.tick({ label: String(Date.now()) })
      return stamp
    `
    const paused = await pause(code)
    await new Promise((resolve) => setTimeout(resolve, 20))
    const decided = await server.request("POST", `/v1/approvals/${paused.approval.id}?wait=30s`, {
      decision: "approve",
    })
    expect(decided.body.execution).toMatchObject({ status: "ok" })
    expect(ledgerCalls(ledger.file)).toEqual({ tick: 2, write: 1 })
    const firstLabel = JSON.parse(readFileSync(ledger.file, "utf8").split("\n")[0]!.slice("tick ".length)).label
    expect(decided.body.execution.resultText).toBe(firstLabel)
  })

  it("without replaying Date, that script diverges: replay_diverged, and nothing recorded is called again", async () => {
    await start({ replayClock: false })
    const paused = await pause(`
      await tools.ledger.tick({ label: String(Date.now()) })
      await tools.ledger.write({ text: "w" })
      return "done"
    `)
    await new Promise((resolve) => setTimeout(resolve, 20))
    const decided = await server.request("POST", `/v1/approvals/${paused.approval.id}?wait=30s`, {
      decision: "approve",
    })
    expect(decided.body.execution).toMatchObject({ status: "error", errorCode: "replay_diverged" })
    expect(decided.body.execution.errorMessage).toContain("ledger.tick")
    expect(ledgerCalls(ledger.file)).toEqual({ tick: 1 })
  })

  it("the time limit counts run time, not the time spent waiting for a person", async () => {
    await start()
    const response = await server.request("POST", "/v1/execute", {
      code: TICK_THEN_WRITE,
      limits: { timeoutMs: 1_000 },
    })
    expect(response.status).toBe(202)
    await new Promise((resolve) => setTimeout(resolve, 1_500))
    const decided = await server.request("POST", `/v1/approvals/${response.body.approval.id}?wait=30s`, {
      decision: "approve",
    })
    expect(decided.body.execution.status).toBe("ok")
  })
})

describe("server-filesystem", () => {
  let server: TestServer
  afterEach(async () => server?.stop())

  it("write_file declares destructiveHint, so it needs approval by default", async () => {
    const root = mkdtempSync(join(scratch, "fs-"))
    server = await startTestServer({ allowStdio: true, runtime: "in-thread" })
    const bin = require.resolve("@modelcontextprotocol/server-filesystem/dist/index.js")
    const added = await server.request("POST", "/v1/sources", {
      namespace: "fs",
      kind: "mcp",
      transport: { type: "stdio", command: process.execPath, args: [bin, root] },
    })
    expect(added.status).toBe(201)
    const file = join(root, "note.txt")
    const paused = await server.request("POST", "/v1/execute", {
      code: `await tools.fs.write_file({ path: ${JSON.stringify(file)}, content: "approved text" })
             return (await tools.fs.read_text_file({ path: ${JSON.stringify(file)} })).data`,
    })
    expect(paused.status).toBe(202)
    expect(paused.body.approval.tool).toBe("fs.write_file")
    expect(() => readFileSync(file)).toThrow()
    const decided = await server.request("POST", `/v1/approvals/${paused.body.approval.id}?wait=30s`, {
      decision: "approve",
    })
    expect(decided.body.execution.status).toBe("ok")
    expect(readFileSync(file, "utf8")).toBe("approved text")
  })
})
