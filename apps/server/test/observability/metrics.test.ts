/**
 * GET /metrics on a real server (issue 17 §3): after executes, tool calls, a refused execute (429) and a failed
 * sync, the Prometheus text counts each; with keys on it answers an admin key only.
 */
import { afterAll, beforeAll, expect, it } from "vitest"
import { startContractHttpServer, startSwitchableHttpServer } from "@switchboard/fixtures"
import type { ContractHttpServer, SwitchableHttpServer } from "@switchboard/fixtures"
import { startTestServer } from "../support/helpers.js"
import type { TestServer } from "../support/helpers.js"

let server: TestServer
let contract: ContractHttpServer
let switchable: SwitchableHttpServer
beforeAll(async () => {
  contract = await startContractHttpServer()
  switchable = await startSwitchableHttpServer()
  // one worker and no queue: a second execute while one runs is refused (429)
  server = await startTestServer({ workers: 1, queue: 0 })
})
afterAll(async () => {
  await server?.stop()
  await contract?.close()
  await switchable?.close()
})

const metrics = async () => {
  const response = await fetch(`${server.url}/metrics`)
  expect(response.status).toBe(200)
  expect(response.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/)
  return response.text()
}

/** the value of one sample, `name{labels}`, or undefined when it is not there */
const sample = (text: string, series: string) => {
  const line = text.split("\n").find((l) => l.startsWith(`${series} `))
  return line === undefined ? undefined : Number(line.slice(series.length + 1))
}

/** polls until `done` (a bounded number of times, no timing asserted) */
const until = async (done: () => Promise<boolean>) => {
  for (let i = 0; i < 250 && !(await done()); i++) await new Promise((resolve) => setTimeout(resolve, 20))
}

it("counts executions, tool calls by source and outcome, a refused execute and a failed sync", async () => {
  const add = (namespace: string, url: string) =>
    server.request("POST", "/v1/sources", { namespace, kind: "mcp", transport: { type: "http", url } })
  expect((await add("fx", contract.url)).status).toBe(201)
  expect((await add("sw", switchable.url)).status).toBe(201)

  const ok = await server.execute(
    `const a = await tools.fx.echo({ message: "hi" }); const b = await tools.fx.fails({}); const c = await tools.nope.tool({});
     return [a.ok, b.ok, b.ok ? null : b.error.code, c.ok ? null : c.error.code]`,
  )
  expect(ok.result).toEqual([true, false, "upstream_error", "tool_not_found"])
  expect((await server.execute("throw new Error('no')")).error.code).toBe("runtime_error")

  // the one worker held by a run waiting on a tool that never answers: the pool says so, and the next execute is
  // refused; the first ends when its caller hangs up
  const caller = new AbortController()
  const held = fetch(`${server.url}/v1/execute`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ code: "await tools.fx.hang({}); return 1" }),
    signal: caller.signal,
  }).catch(() => "hung up")
  await until(async () => sample(await metrics(), "switchboard_pool_busy_workers") === 1)
  const refused = await server.request("POST", "/v1/execute", { code: "return 2" })
  expect(refused.status).toBe(429)
  caller.abort()
  expect(await held).toBe("hung up")
  await until(async () => {
    const text = await metrics()
    return (
      sample(text, 'switchboard_executions_total{status="error",error_code="aborted"}') === 1 &&
      sample(text, 'switchboard_tool_calls_total{source="fx",outcome="aborted"}') === 1
    )
  })

  switchable.mode = { kind: "error", status: 500, body: "down for maintenance" }
  expect((await server.request("POST", "/v1/sources/sw/sync", {})).status).toBe(502)
  switchable.mode = { kind: "mcp" }

  const text = await metrics()
  expect(sample(text, 'switchboard_executions_total{status="ok",error_code=""}')).toBe(1)
  expect(sample(text, 'switchboard_executions_total{status="error",error_code="runtime_error"}')).toBe(1)
  expect(sample(text, 'switchboard_executions_total{status="error",error_code="aborted"}')).toBe(1)
  expect(sample(text, 'switchboard_execution_duration_seconds_count{status="ok"}')).toBe(1)
  expect(sample(text, 'switchboard_execution_duration_seconds_count{status="error"}')).toBe(2)
  expect(sample(text, 'switchboard_tool_calls_total{source="fx",outcome="ok"}')).toBe(1)
  expect(sample(text, 'switchboard_tool_calls_total{source="fx",outcome="upstream_error"}')).toBe(1)
  // a namespace no source has is no label value
  expect(sample(text, 'switchboard_tool_calls_total{source="",outcome="tool_not_found"}')).toBe(1)
  expect(text).not.toContain('source="nope"')
  // the call cut off when its execution was aborted
  expect(sample(text, 'switchboard_tool_calls_total{source="fx",outcome="aborted"}')).toBe(1)
  expect(sample(text, 'switchboard_tool_upstream_duration_seconds_count{source="fx"}')).toBe(3)
  expect(sample(text, "switchboard_executions_rejected_total")).toBe(1)
  expect(sample(text, 'switchboard_http_requests_total{method="POST",route="/v1/execute",status="429"}')).toBe(1)
  expect(
    sample(text, 'switchboard_http_requests_total{method="POST",route="/v1/execute",status="200"}'),
  ).toBeGreaterThanOrEqual(2)
  expect(sample(text, 'switchboard_source_syncs_total{source="sw",result="error"}')).toBe(1)
  expect(sample(text, "switchboard_pool_workers")).toBe(1)
  expect(sample(text, "switchboard_pool_queue_depth")).toBe(0)
  expect(sample(text, "switchboard_pool_busy_workers")).toBe(0)
  // prom-client's own process metrics
  expect(text).toMatch(/^process_resident_memory_bytes \d+/m)
})

it("needs the admin scope when keys are on", async () => {
  const keyed = await startTestServer({ requireKey: true, runtime: "in-thread" })
  try {
    const admin = (await keyed.host.keys.create("ops", ["admin"])).key
    const execute = (await keyed.host.keys.create("agent", ["execute"])).key
    const ask = (key?: string) =>
      fetch(`${keyed.url}/metrics`, { headers: key ? { authorization: `Bearer ${key}` } : {} })
    expect((await ask()).status).toBe(401)
    const refused = await ask(execute)
    expect(refused.status).toBe(403)
    expect(await refused.json()).toMatchObject({ error: { code: "forbidden" } })
    const allowed = await ask(admin)
    expect(allowed.status).toBe(200)
    expect(await allowed.text()).toContain("# TYPE switchboard_executions_total counter")
  } finally {
    await keyed.stop()
  }
})
