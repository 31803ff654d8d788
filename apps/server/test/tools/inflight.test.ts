/** Tool calls still in flight when an execution ends are cut off: recorded as aborted, never left running. */
import { afterAll, beforeAll, expect, it } from "vitest"
import { fixtureCommand } from "@switchboard/fixtures"
import { startTestServer } from "../support/helpers.js"
import type { TestServer } from "../support/helpers.js"

let server: TestServer
beforeAll(async () => {
  server = await startTestServer({ allowStdio: true })
  expect(
    (
      await server.request("POST", "/v1/sources", {
        namespace: "contract",
        kind: "mcp",
        transport: { type: "stdio", ...fixtureCommand("contract-stdio") },
      })
    ).status,
  ).toBe(201)
})
afterAll(() => server?.stop())

it("a call the script never awaited is recorded as aborted when the run ends, and the server stays usable", async () => {
  const response = await server.execute(
    `tools.contract.hang({}); await tools.contract.echo({ message: "m" }); return "done"`,
  )
  expect(response).toMatchObject({ ok: true, result: "done" })
  const record = await server.request("GET", `/v1/executions/${response.executionId}`)
  const calls = record.body.execution.calls as { toolPath: string; ok: boolean; errorCode: string | null }[]
  expect(calls.map((c) => [c.toolPath, c.ok, c.errorCode]).sort()).toEqual([
    ["contract.echo", true, null],
    ["contract.hang", false, "aborted"],
  ])
  expect((await server.execute(`return (await tools.contract.echo({ message: "next" })).data`)).result).toBe("next")
})

it("one execution calling one tool many times stays correct with the per-execution catalog lookup", async () => {
  const response = await server.execute(
    `let s = 0; for (let i = 0; i < 50; i++) s += Number((await tools.contract["get-sum"]({ a: i, b: 1 })).data); return s`,
  )
  expect(response.result).toBe(1275)
})
