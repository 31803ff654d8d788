/**
 * Policies and approvals from the operator's side, through the built CLI in real processes on a real SQLite file:
 * the config file's `policies` (checked, applied at boot, replaced at the next), `--no-approvals`, `switchboard run`
 * pausing, and `switchboard policies` / `approvals` on the local catalog (--db) and on a running server (--url). The
 * upstream is the contract fixture over HTTP in this process; a `require_approval` rule on `contract.echo` stands for
 * a tool that needs a person's approval.
 */
import { readdirSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { afterAll, afterEach, beforeAll, expect, it } from "vitest"
import { startContractHttpServer } from "@switchboard/fixtures"
import type { ContractHttpServer } from "@switchboard/fixtures"
import { openSqlite } from "../../src/database/sqlite-database.js"
import { tempDir } from "../support/helpers.js"
import { spawnServe } from "../support/process-harness.js"
import type { ServeProcess } from "../support/process-harness.js"
import { runCli } from "../support/run-cli.js"

/** the exit code of a run that paused for an approval (src/commands/paused-text.ts) */
const EXIT_PAUSED = 3

/** calls echo and says what the call came to: its text, or its error's code and message */
const echoScript = `const r = await tools.contract.echo({ message: "hi" })
return r.ok ? r.data : r.error.code + ": " + r.error.message`

let upstream: ContractHttpServer
beforeAll(async () => {
  upstream = await startContractHttpServer()
})
afterAll(() => upstream?.close())

let cleanups: (() => Promise<void> | void)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup()
  cleanups = []
})

const scratch = () => {
  const dir = tempDir()
  cleanups.push(dir.remove)
  return dir.dir
}

const contractSource = () => ({ namespace: "contract", kind: "mcp", transport: { type: "http", url: upstream.url } })

const serve = async (args: string[], env?: Record<string, string>) => {
  const server = await spawnServe(args, { env })
  cleanups.push(() => server.stop())
  return server
}

/** One HTTP request to a served process, with a key when given. */
const request = async (server: ServeProcess, method: string, path: string, body?: unknown, key?: string) => {
  const response = await fetch(server.url + path, {
    method,
    headers: {
      ...(body === undefined ? {} : { "content-type": "application/json" }),
      ...(key ? { authorization: `Bearer ${key}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const text = await response.text()
  return { status: response.status, body: text ? JSON.parse(text) : null }
}

/** stderr is a pipe of its own: what was written before the listening line may arrive after it */
const stderrOnce = async (server: ServeProcess, text: string) => {
  for (let i = 0; i < 100 && !server.stderr().includes(text); i++)
    await new Promise((resolve) => setTimeout(resolve, 50))
  return server.stderr()
}

it("config check names a bad policy rule's field and line, and counts the good ones", async () => {
  const dir = scratch()
  const file = join(dir, "switchboard.config.json")
  writeFileSync(
    file,
    `{
  "policies": [
    { "pattern": "contract.*", "action": "require_approval" },
    { "pattern": "contract.echo", "action": "never" }
  ],
  "approvals": { "timeout": "1 hour" }
}
`,
  )
  const bad = await runCli(["config", "check", file])
  expect(bad.status).toBe(1)
  expect(bad.stderr).toBe(
    `${file}:4:35: policies[1].action: "action" must be one of allow, require_approval, block\n` +
      `${file}:6:18: approvals.timeout: approvals.timeout must be a duration such as 1h, 30m, 90s or 2d\n`,
  )
  writeFileSync(file, JSON.stringify({ policies: [{ pattern: "contract.*", action: "block" }] }))
  const good = await runCli(["config", "check", file])
  expect(good.stdout, good.stderr).toBe(`${file}: ok (0 sources; 1 policy rule)\n`)
}, 60_000)

it("serve --config: the file's block rule blocks the tool from boot; booted with the rule taken out of the file, it is gone and a rule added through the API stays", async () => {
  const dir = scratch()
  const db = join(dir, "catalog.db")
  const file = join(dir, "switchboard.config.json")
  const config = (policies: unknown[]) =>
    writeFileSync(file, JSON.stringify({ server: { db }, sources: [contractSource()], policies }, null, 2))
  config([{ pattern: "contract.echo", action: "block", reason: "no echo today" }])

  const first = await serve(["--config", file])
  expect(await stderrOnce(first, "policies:")).toContain(
    `config ${file}: added contract; policies: 1 rule from the file`,
  )
  const blocked = await request(first, "POST", "/v1/execute", {
    code: "return await tools.contract.echo({ message: 'hi' })",
  })
  expect(blocked.status).toBe(200)
  expect(blocked.body.result).toMatchObject({ ok: false, error: { code: "blocked" } })
  expect(blocked.body.result.error.message).toContain("no echo today")
  const listed = await request(first, "GET", "/v1/policies")
  expect(listed.body.policies).toMatchObject([{ pattern: "contract.echo", action: "block", origin: "config" }])
  const added = await request(first, "POST", "/v1/policies", { pattern: "contract.prose", action: "block" })
  expect(added.status).toBe(201)
  await first.stop()

  config([])
  const second = await serve(["--config", file])
  expect(await stderrOnce(second, "policies:")).toContain(
    "unchanged contract; policies: 0 rules from the file (1 added through the API kept)",
  )
  const after = await request(second, "GET", "/v1/policies")
  expect(after.body.policies).toEqual([added.body.policy])
  const ran = await request(second, "POST", "/v1/execute", { code: echoScript })
  expect(ran.body).toMatchObject({ ok: true, result: "hi" })
}, 120_000)

it("--no-approvals lets a call that needs approval run (without it the execute pauses, 202); a block rule still blocks", async () => {
  const dir = scratch()
  const db = join(dir, "catalog.db")
  const file = join(dir, "switchboard.config.json")
  writeFileSync(
    file,
    JSON.stringify({
      server: { db },
      sources: [contractSource()],
      policies: [
        { pattern: "contract.echo", action: "require_approval", reason: "a person reads each echo" },
        { pattern: "contract.prose", action: "block" },
      ],
    }),
  )
  const guarded = await serve(["--config", file])
  const paused = await request(guarded, "POST", "/v1/execute", { code: echoScript })
  expect(paused.status).toBe(202)
  expect(paused.body).toMatchObject({
    status: "paused",
    approval: { tool: "contract.echo", args: { message: "hi" }, reason: expect.stringContaining("a person reads") },
  })
  await guarded.stop()

  const trusted = await serve(["--config", file, "--no-approvals"])
  expect(await stderrOnce(trusted, "approvals are off")).toContain(
    "switchboard: approvals are off (--no-approvals): a call that would need a person's approval runs; a block rule still blocks",
  )
  const ran = await request(trusted, "POST", "/v1/execute", { code: echoScript })
  expect(ran.status).toBe(200)
  expect(ran.body).toMatchObject({ ok: true, result: "hi" })
  const prose = await request(trusted, "POST", "/v1/execute", {
    code: "return await tools.contract.prose({ name: 'Ada' })",
  })
  expect(prose.body.result).toMatchObject({ ok: false, error: { code: "blocked" } })
  expect((await request(trusted, "GET", "/v1/policies")).body).toMatchObject({ approvals: false })
}, 120_000)

it("a malformed --approval-timeout stops serve and run before anything is opened, naming the flag", async () => {
  const dir = scratch()
  for (const command of [["serve"], ["run", "-"]]) {
    const refused = await runCli([...command, "--db", join(dir, "never.db"), "--approval-timeout", "soon"])
    expect(refused.status, command[0]).toBe(2)
    expect(refused.stderr).toBe(
      'switchboard: --approval-timeout must be a duration such as 1h, 30m, 90s or 2d (got "soon")\n',
    )
  }
  expect(readdirSync(dir)).toEqual([])
}, 60_000)

it("locally (--db): run pauses and exits 3 naming the approval; approvals list shows it; approve resumes it in the command's process and the execution ends ok; decline resumes it with the note", async () => {
  const dir = scratch()
  const db = join(dir, "catalog.db")
  openSqlite(db).close()
  const cli = (args: string[], input?: string) => runCli([...args, "--db", db], { input })
  expect((await cli(["sources", "add", JSON.stringify(contractSource())])).status).toBe(0)

  const added = await cli([
    "policies",
    "add",
    "--pattern",
    "contract.echo",
    "--action",
    "require_approval",
    "--reason",
    "a person reads each echo",
  ])
  expect(added.stdout, added.stderr).toMatch(/^added policy \S+: require_approval for path contract\.echo\n$/)
  const policies = await cli(["policies", "list"])
  const [header, row, footer] = policies.stdout.trimEnd().split("\n")
  expect(header!.split(/\s{2,}/)).toEqual([
    "ID",
    "ACTION",
    "PATTERN",
    "SOURCE",
    "ANNOTATION",
    "ORIGIN",
    "CREATED",
    "REASON",
  ])
  expect(row).toMatch(/^\S+\s+require_approval\s+contract\.echo\s+api\s+.*a person reads each echo$/)
  expect(footer).toMatch(/^where no rule matches: a tool that declares destructiveHint: true requires approval/)

  const run = await cli(["run", "-"], echoScript)
  expect(run.status, run.stderr).toBe(EXIT_PAUSED)
  expect(run.stdout).toBe("")
  const approvalId = /^ {2}approval {2}(\S+)$/m.exec(run.stderr)?.[1]
  const executionId = /^paused: execution (\S+) waits for a person's approval of contract\.echo$/m.exec(run.stderr)?.[1]
  expect(approvalId, run.stderr).toBeDefined()
  expect(executionId).toBeDefined()
  expect(run.stderr).toContain('  args      {"message":"hi"}\n')
  expect(run.stderr).toContain(`approve:  switchboard approvals approve ${approvalId} --db ${db}\n`)
  // the paused execution names what it waits for, and how to decide it
  const waiting = await cli(["executions", "show", executionId!])
  expect(waiting.stdout).toMatch(/^status\s+paused$/m)
  expect(waiting.stdout).toMatch(
    new RegExp(
      `^waits for\\s+approval ${approvalId}: contract\\.echo \\(a person reads each echo.*\\); switchboard approvals approve ${approvalId} --db `,
      "m",
    ),
  )
  expect(JSON.parse((await cli(["executions", "show", executionId!, "--json"])).stdout).approval).toMatchObject({
    id: approvalId,
    status: "pending",
  })

  const pending = await cli(["approvals", "list"])
  expect(pending.status, pending.stderr).toBe(0)
  const rows = pending.stdout.trimEnd().split("\n")
  expect(rows[0]!.split(/\s{2,}/)).toEqual(["ID", "STATUS", "TOOL", "ARGS", "EXECUTION", "EXPIRES", "REASON"])
  expect(rows.slice(1).map((line) => line.split(/\s{2,}/).slice(0, 5))).toEqual([
    [approvalId, "pending", "contract.echo", '{"message":"hi"}', executionId],
  ])
  expect(JSON.parse((await cli(["approvals", "list", "--json"])).stdout).approvals).toMatchObject([
    { id: approvalId, executionId, status: "pending", tool: "contract.echo" },
  ])

  const approved = await cli(["approvals", "approve", approvalId!, "--json"])
  expect(approved.status, approved.stderr).toBe(0)
  const answer = JSON.parse(approved.stdout)
  expect(answer.approval).toMatchObject({ id: approvalId, status: "approved" })
  expect(answer.approval.resumedAt).not.toBeNull()
  expect(answer.execution).toMatchObject({ id: executionId, status: "ok", resultText: "hi" })
  expect((await cli(["approvals", "list"])).stdout.trimEnd().split("\n")).toHaveLength(1)
  const shown = await cli(["executions", "show", executionId!])
  expect(shown.stdout).toMatch(/^status\s+ok$/m)
  const again = await cli(["approvals", "approve", approvalId!])
  expect(again.status).toBe(1)
  expect(again.stderr).toBe(`switchboard: approval ${approvalId} was already decided: approved (conflict)\n`)

  const second = await cli(["run", "-"], echoScript)
  expect(second.status).toBe(EXIT_PAUSED)
  const secondId = /^ {2}approval {2}(\S+)$/m.exec(second.stderr)![1]!
  const declined = await cli(["approvals", "decline", secondId, "--note", "not today"])
  expect(declined.status, declined.stderr).toBe(0)
  const [head, end] = declined.stdout.trimEnd().split("\n")
  expect(head).toMatch(new RegExp(`^declined ${secondId}: contract\\.echo \\{"message":"hi"\\} \\(execution \\S+\\)$`))
  expect(end).toMatch(/^execution \S+: ok; its result: switchboard executions output \S+ --db /)
  const declinedId = /execution (\S+): ok/.exec(end!)![1]!
  const text = await cli(["executions", "output", declinedId])
  expect(text.stdout).toMatch(/^declined: .*not today/)

  // a catalog named by the environment is named so to the next command too: no --db (it may hold a password)
  const fromEnv = await runCli(["run", "-"], { input: echoScript, env: { SWITCHBOARD_DB: db } })
  expect(fromEnv.status, fromEnv.stderr).toBe(EXIT_PAUSED)
  const fromEnvId = /^ {2}approval {2}(\S+)$/m.exec(fromEnv.stderr)![1]!
  expect(fromEnv.stderr).toContain(`approve:  switchboard approvals approve ${fromEnvId}\n`)
  expect(fromEnv.stderr).not.toContain("--db")
}, 180_000)

it("on a server (--url, an admin key): policies add and list, approvals list shows a paused execute, approve --wait answers the resumed run's end, policies remove", async () => {
  const dir = scratch()
  const db = join(dir, "catalog.db")
  openSqlite(db).close()
  const admin = (await runCli(["keys", "create", "ops", "--scope", "admin", "--db", db])).stdout.trim()
  const server = await serve(["--db", db, "--require-key"])
  const cli = (args: string[]) => runCli([...args, "--url", server.url], { env: { SWITCHBOARD_KEY: admin } })
  expect((await cli(["sources", "add", JSON.stringify(contractSource())])).status).toBe(0)

  const added = await cli(["policies", "add", "--source", "contract", "--action", "require_approval", "--json"])
  expect(added.status, added.stderr).toBe(0)
  const { policy } = JSON.parse(added.stdout)
  expect(policy).toMatchObject({ source: "contract", action: "require_approval", origin: "api" })
  expect(JSON.parse((await cli(["policies", "list", "--json"])).stdout)).toMatchObject({
    policies: [policy],
    approvals: true,
  })
  const refused = await cli(["policies", "add", "--pattern", "contract echo", "--action", "block"])
  expect(refused.status).toBe(1)
  expect(refused.stderr).toMatch(/^switchboard: .*"pattern" holds no whitespace.* \(invalid_request\)\n$/)

  const paused = await request(server, "POST", "/v1/execute", { code: echoScript }, admin)
  expect(paused.status).toBe(202)
  const { id: approvalId } = paused.body.approval
  const listed = await cli(["approvals", "list"])
  expect(
    listed.stdout
      .trimEnd()
      .split("\n")
      .slice(1)
      .map((line) => line.split(/\s{2,}/).slice(0, 3)),
  ).toEqual([[approvalId, "pending", "contract.echo"]])

  const approved = await cli(["approvals", "approve", approvalId, "--note", "fine", "--wait", "30s", "--json"])
  expect(approved.status, approved.stderr).toBe(0)
  const answer = JSON.parse(approved.stdout)
  expect(answer.approval).toMatchObject({ id: approvalId, status: "approved", note: "fine" })
  expect(answer.execution).toMatchObject({ id: paused.body.executionId, status: "ok", resultText: "hi" })
  const execution = await request(server, "GET", `/v1/executions/${paused.body.executionId}`, undefined, admin)
  expect(execution.body.execution).toMatchObject({ status: "ok", resultText: "hi" })

  const removed = await cli(["policies", "remove", policy.id])
  expect(removed.stdout, removed.stderr).toBe(`removed policy ${policy.id}\n`)
  expect(JSON.parse((await cli(["policies", "list", "--json"])).stdout).policies).toEqual([])
  const ran = await request(server, "POST", "/v1/execute", { code: echoScript }, admin)
  expect(ran.body).toMatchObject({ ok: true, result: "hi" })
}, 180_000)

it("a person deciding sees the whole call: run's paused text and approvals list share the room between the fields and name what they cut; approvals show gives every argument, control and bidi characters escaped", async () => {
  const dir = scratch()
  const db = join(dir, "catalog.db")
  openSqlite(db).close()
  const cli = (args: string[], input?: string) => runCli([...args, "--db", db], { input })
  expect((await cli(["sources", "add", JSON.stringify(contractSource())])).status).toBe(0)
  expect((await cli(["policies", "add", "--pattern", "contract.echo", "--action", "require_approval"])).status).toBe(0)

  // a long harmless memo first, then where the money goes, its name reversed on screen by U+202E
  const script = `return await tools.contract.echo({ memo: "thanks for lunch ".repeat(3000), message: "hi", to: "moc.live@\\u202eyrallam", amount: 1000000 })`
  const run = await cli(["run", "-"], script)
  expect(run.status, run.stderr).toBe(EXIT_PAUSED)
  const approvalId = /^ {2}approval {2}(\S+)$/m.exec(run.stderr)![1]!
  const argsLine = /^ {2}args {6}(.*)$/m.exec(run.stderr)![1]!
  expect(argsLine).toMatch(
    /^\{"memo":"thanks for lunch .*…\(51002 chars\),"message":"hi","to":"moc\.live@\\u202eyrallam","amount":1000000\}$/,
  )
  expect(run.stderr).toContain(
    `  cut       not shown whole: memo; all of them: switchboard approvals show ${approvalId} --db ${db}\n`,
  )
  expect(run.stderr).not.toContain("\u202e")

  const listed = await cli(["approvals", "list"])
  const row = listed.stdout.trimEnd().split("\n")[1]!
  expect(row).toContain('"to":"moc.live@\\u202eyrallam"')
  expect(row).toContain('"amount":1000000')
  expect(listed.stdout).not.toContain("\u202e")

  const shown = await cli(["approvals", "show", approvalId])
  expect(shown.status, shown.stderr).toBe(0)
  expect(shown.stdout).toMatch(new RegExp(`^approval  ${approvalId}\nstatus    pending\ntool      contract\\.echo\n`))
  const args = shown.stdout.slice(shown.stdout.indexOf("\nargs\n") + 6)
  expect(JSON.parse(args)).toEqual({
    memo: "thanks for lunch ".repeat(3000),
    message: "hi",
    to: "moc.live@\u202eyrallam",
    amount: 1000000,
  })
  expect(args).toContain('"to": "moc.live@\\u202eyrallam"')
  expect(shown.stdout).not.toContain("\u202e")
  const json = JSON.parse((await cli(["approvals", "show", approvalId, "--json"])).stdout)
  expect(json.approval).toMatchObject({ id: approvalId, status: "pending", args: { to: "moc.live@\u202eyrallam" } })
  const missing = await cli(["approvals", "show", "nope"])
  expect(missing.status).toBe(1)
  expect(missing.stderr).toBe('switchboard: no approval "nope" (not_found)\n')
}, 120_000)
