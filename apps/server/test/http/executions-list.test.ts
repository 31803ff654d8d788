/**
 * GET /v1/executions on a real server, on SQLite and on Postgres: a page of executions newest first, each key
 * seeing only its own unless admin, a server without keys seeing every one, paging by `nextBefore`, and 400 for
 * a parameter it cannot take.
 */
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { timeOrderedId } from "@switchboard/core"
import { startTestServer } from "../support/helpers.js"
import type { DatabaseKind, TestServer } from "../support/helpers.js"

interface Summary {
  id: string
  status: string
  keyId: string | null
  resultChars: number | null
  codePreview: string
}
interface Page {
  executions: Summary[]
  nextBefore?: string
}

describe.each<DatabaseKind>(["sqlite", "postgres"])("GET /v1/executions on %s", (database) => {
  let server: TestServer
  const token: Record<string, string> = {}
  const keyId: Record<string, string> = {}
  /** every execution made, oldest first */
  const made: { id: string; owner: string }[] = []

  const ask = async (key: string, path: string) => {
    const response = await fetch(server.url + path, { headers: { authorization: `Bearer ${key}` } })
    return { status: response.status, body: (await response.json()) as Page & { error?: unknown } }
  }
  const run = async (owner: string, code: string) => {
    const response = await fetch(`${server.url}/v1/execute`, {
      method: "POST",
      headers: { authorization: `Bearer ${token[owner]}`, "content-type": "application/json" },
      body: JSON.stringify({ code }),
    })
    made.push({ id: ((await response.json()) as { executionId: string }).executionId, owner })
  }
  const idsOf = (owners?: string[]) =>
    made
      .filter((e) => owners === undefined || owners.includes(e.owner))
      .map((e) => e.id)
      .reverse()

  beforeAll(async () => {
    server = await startTestServer({ requireKey: true, database })
    for (const [name, scope] of [
      ["read", "read"],
      ["x1", "execute"],
      ["x2", "execute"],
      ["admin", "admin"],
    ] as const)
      ({ key: token[name]!, id: keyId[name]! } = await server.host.keys.create(name, [scope]))
    await run("x1", "// first\nreturn 1")
    await run("x2", "return 'two'")
    await run("x1", "throw new Error('boom')")
    await run("admin", "return '😀'")
    made.push({
      id: (await Effect.runPromise(server.host.executor.execute({ code: "return 5" }))).executionId!,
      owner: "none",
    })
    await run("x1", "\n  return [1, 2, 3]\n")
    // a read key cannot run a script: its own execution is one recorded as a key's that lost `execute` since
    const own = timeOrderedId()
    await server.host.store.recordBatch([
      {
        execution: {
          id: own,
          code: "return 'mine'",
          status: "ok",
          startedAt: Date.now(),
          durationMs: 1,
          resultText: "mine",
          errorCode: null,
          errorMessage: null,
          logs: [],
          toolCallCount: 0,
          keyId: keyId.read!,
          keepUntil: null,
        },
        calls: [],
      },
    ])
    made.push({ id: own, owner: "read" })
  }, 60_000)
  afterAll(() => server?.stop())

  it("a key sees only its own executions, newest first, each summed up", async () => {
    const page = await ask(token.x1!, "/v1/executions")
    expect(page.status).toBe(200)
    expect(page.body).toEqual({
      executions: [
        expect.objectContaining({ codePreview: "return [1, 2, 3]", status: "ok", resultChars: 7 }),
        expect.objectContaining({ codePreview: "throw new Error('boom')", status: "error", resultChars: null }),
        expect.objectContaining({ codePreview: "// first", status: "ok", resultChars: 1 }),
      ],
    })
    expect(page.body.executions.map((e) => e.id)).toEqual(idsOf(["x1"]))
    expect(page.body.executions.every((e) => e.keyId === keyId.x1)).toBe(true)
    expect((await ask(token.x2!, "/v1/executions")).body.executions.map((e) => e.id)).toEqual(idsOf(["x2"]))
    expect((await ask(token.read!, "/v1/executions")).body).toEqual({
      executions: [expect.objectContaining({ id: made.at(-1)!.id, keyId: keyId.read, codePreview: "return 'mine'" })],
    })
    expect((await ask(token.x1!, "/v1/executions?status=error")).body.executions.map((e) => e.id)).toEqual([
      made[2]!.id,
    ])
  })

  it("admin sees every execution, with and without a key", async () => {
    const page = await ask(token.admin!, "/v1/executions")
    expect(page.body.executions.map((e) => e.id)).toEqual(idsOf())
    expect(page.body.executions.map((e) => e.keyId)).toEqual(
      [...made].reverse().map((e) => (e.owner === "none" ? null : keyId[e.owner])),
    )
    expect(page.body.executions.find((e) => e.keyId === keyId.admin)?.resultChars).toBe(2)
    expect(page.body.nextBefore).toBeUndefined()
  })

  it("pages by nextBefore until a page is not full", async () => {
    const seen: string[] = []
    let path = "/v1/executions?limit=2"
    const pages: number[] = []
    for (;;) {
      const { status, body } = await ask(token.admin!, path)
      expect(status).toBe(200)
      seen.push(...body.executions.map((e) => e.id))
      pages.push(body.executions.length)
      if (body.nextBefore === undefined) break
      expect(body.nextBefore).toBe(body.executions.at(-1)!.id)
      path = `/v1/executions?limit=2&before=${body.nextBefore}`
    }
    // seven executions: three full pages and the rest
    expect(pages).toEqual([2, 2, 2, 1])
    expect(seen).toEqual(idsOf())
    const mine = await ask(token.x1!, "/v1/executions?limit=2")
    expect(mine.body.nextBefore).toBe(idsOf(["x1"])[1])
    expect((await ask(token.x1!, `/v1/executions?limit=2&before=${mine.body.nextBefore}`)).body).toEqual({
      executions: [expect.objectContaining({ id: idsOf(["x1"])[2] })],
    })
    // a full page cannot know it was the last: the page after it is empty
    const all = await ask(token.x1!, "/v1/executions?limit=3")
    expect(all.body.nextBefore).toBe(idsOf(["x1"])[2])
    expect((await ask(token.x1!, `/v1/executions?limit=3&before=${all.body.nextBefore}`)).body).toEqual({
      executions: [],
    })
  })

  it.each([
    ["limit=0", "limit must be a whole number from 1 to 200 (got 0)"],
    ["limit=201", "limit must be a whole number from 1 to 200 (got 201)"],
    ["limit=ten", 'limit must be a whole number from 1 to 200 (got "ten")'],
    ["limit=1.5", 'limit must be a whole number from 1 to 200 (got "1.5")'],
    ["limit=", 'limit must be a whole number from 1 to 200 (got "")'],
    ["status=failed", 'status must be "ok", "error" or "paused" (got "failed")'],
    ["before=", 'before must be an execution id, as `nextBefore` names it (got "")'],
  ])("?%s is 400 invalid_request naming the parameter", async (query, message) => {
    const answer = await ask(token.admin!, `/v1/executions?${query}`)
    expect(answer.status).toBe(400)
    expect(answer.body).toEqual({ error: { code: "invalid_request", message } })
  })
})

it("a server without keys lists every execution", async () => {
  const open = await startTestServer()
  try {
    const first = await open.execute("return 1")
    const second = await open.execute("return 2")
    const page = await open.request("GET", "/v1/executions")
    expect(page.status).toBe(200)
    expect(page.body.executions.map((e: Summary) => e.id)).toEqual([second.executionId, first.executionId])
    expect(page.body.executions[0]).toMatchObject({ keyId: null, codePreview: "return 2", resultChars: 1 })
  } finally {
    await open.stop()
  }
}, 60_000)
