/**
 * Learned shapes are shown to every caller (describe), so a key that only one API key's results ever held could
 * be that caller's data (`{balances: {alicesmith: …}}`): describe names a learned key only once results of two
 * different keys held it. With keys off there is one caller, the operator, and every learned key is shown.
 */
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { fixtureCommand } from "@switchboard/fixtures"
import { startTestServer } from "../support/helpers.js"
import type { TestServer } from "../support/helpers.js"

const contract = {
  namespace: "contract",
  kind: "mcp",
  transport: { type: "stdio", ...fixtureCommand("contract-stdio") },
}
const echoJson = (value: unknown) =>
  `const r = await tools.contract.echo({ message: ${JSON.stringify(JSON.stringify(value))} }); return r.ok`

describe("with keys", () => {
  let server: TestServer
  const token: Record<"alice" | "bob", string> = { alice: "", bob: "" }

  beforeAll(async () => {
    server = await startTestServer({ requireKey: true, allowStdio: true })
    for (const name of ["alice", "bob"] as const) token[name] = (await server.host.keys.create(name, ["execute"])).key
    await Effect.runPromise(server.host.sources.add(contract))
  }, 60_000)
  afterAll(() => server?.stop())

  const ask = async (who: "alice" | "bob", path: string, body: unknown) => {
    const response = await fetch(server.url + path, {
      method: "POST",
      headers: { authorization: `Bearer ${token[who]}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    })
    return { status: response.status, body: await response.json() }
  }
  const learned = async (who: "alice" | "bob") => {
    const { body } = await ask(who, "/v1/describe", { paths: ["contract.echo"] })
    return JSON.stringify(body)
  }

  it("a key only one caller's results held is not named to anyone; one seen by two callers is", async () => {
    for (let i = 0; i < 3; i++) {
      const run = await ask("alice", "/v1/execute", {
        code: echoJson({ total: i, balances: { alicesmith: 10 + i } }),
      })
      expect(run.body).toMatchObject({ ok: true, result: true })
    }
    const seenByOne = await learned("bob")
    expect(seenByOne).not.toContain("alicesmith")
    expect(seenByOne).not.toContain("total")
    expect(await learned("alice")).not.toContain("alicesmith")

    await ask("bob", "/v1/execute", { code: echoJson({ total: 7, balances: { bobjones: 3 } }) })
    const seenByTwo = await learned("bob")
    expect(seenByTwo).toContain("total")
    expect(seenByTwo).toContain("balances")
    expect(seenByTwo).not.toContain("alicesmith")
    expect(seenByTwo).not.toContain("bobjones")
  })
})

describe("with keys off", () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer({ allowStdio: true })
    await Effect.runPromise(server.host.sources.add(contract))
  }, 60_000)
  afterAll(() => server?.stop())

  it("every learned key is shown: there is one caller", async () => {
    await server.execute(echoJson({ total: 1, balances: { alicesmith: 1 } }))
    const { body } = await server.request("POST", "/v1/describe", { paths: ["contract.echo"] })
    expect(JSON.stringify(body)).toContain("alicesmith")
  })
})
