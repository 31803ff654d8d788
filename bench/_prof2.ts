import { createQuickJsRuntime } from "@switchboard/runtime-quickjs"
import { defaultLimits } from "@switchboard/core"
import { performance } from "node:perf_hooks"
const runtime = await createQuickJsRuntime()
const med = (xs: number[]) => xs.sort((a, b) => a - b)[xs.length >> 1]
const invoke = async () => ({ ok: true as const, data: 1 })
for (let i = 0; i < 1500; i++) await runtime.run("return 1+1", { invoke, limits: defaultLimits })
const r: number[] = []
for (let i = 0; i < 3000; i++) { const t0 = performance.now(); await runtime.run("return 1+1", { invoke, limits: defaultLimits }); r.push(performance.now() - t0) }
console.log({ runtime_run_us: med(r) * 1000 })
