import { expect, test } from "vitest"
import { loadQuickJsModule, runScript } from "../src/index.js"
import { noTools, recordingInvoke, testLimits } from "./helpers.js"

const median = (samples: number[]) => [...samples].sort((a, b) => a - b)[samples.length >> 1] ?? Number.NaN

/** A sanity pass, not a timed assertion: it prints medians and checks that the runs were correct. */
test("benchmark sanity: per-run overhead against a bare QuickJS lifecycle", async () => {
  const module = await loadQuickJsModule()
  const bare = () => {
    const runtime = module.newRuntime()
    const context = runtime.newContext()
    context.evalCode("1+1").dispose()
    context.dispose()
    runtime.dispose()
  }
  const { invoke } = recordingInvoke({ "svc.get": (args) => args })
  const measure = async (runs: number, once: () => unknown) => {
    const samples: number[] = []
    for (let index = 0; index < runs; index++) {
      const started = performance.now()
      await once()
      samples.push((performance.now() - started) * 1000)
    }
    return median(samples)
  }
  for (let index = 0; index < 50; index++) bare()
  await measure(50, () => runScript(module, "return 1 + 1", { invoke: noTools, limits: testLimits }))

  const bareUs = await measure(200, bare)
  const minimalUs = await measure(200, async () => {
    const run = await runScript(module, "return 1 + 1", { invoke: noTools, limits: testLimits })
    expect(run.outcome).toEqual({ ok: true, value: 2, logs: [] })
  })
  const threeCallsUs = await measure(200, async () => {
    const run = await runScript(
      module,
      "const a = await tools.svc.get({ id: 1 })\nconst b = await tools.svc.get({ id: 2 })\nconst c = await tools.svc.get({ id: 3 })\n" +
        "return [a, b, c].map((r) => r.ok && (r.data as { id: number }).id)",
      { invoke, limits: testLimits },
    )
    expect(run.outcome).toEqual({ ok: true, value: [1, 2, 3], logs: [] })
  })
  console.log(
    `median per run: bare runtime+context+eval+dispose ${bareUs.toFixed(0)} µs; ` +
      `runScript("return 1 + 1") ${minimalUs.toFixed(0)} µs; with 3 awaited tool calls ${threeCallsUs.toFixed(0)} µs`,
  )
}, 60_000)
