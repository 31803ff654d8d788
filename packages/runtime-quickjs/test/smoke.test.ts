import { test } from "vitest"
import { createQuickJsRuntime, loadQuickJsModule, runScript } from "../src/index.js"
import { runWith, recordingInvoke, testLimits } from "./helpers.js"

test("smoke", async () => {
  const rt = await createQuickJsRuntime()
  const { invoke } = recordingInvoke({ "a.b": (x) => x })
  const cases = [
    "return 1+1",
    "throw 'x'", "throw {a:1}", "throw new TypeError('boom')", "const o = { get message() { throw 1 } }; throw o",
    "console.log('hi', 1, {a:2}, null, undefined, 3n, () => 1, Symbol('s')); console.warn(new Error('e'))",
    "return await tools.a.b({ q: 1 })",
    "return () => 1", "return Symbol('x')", "const a = {}; a.a = a; return a", "return 10n",
    "return { toJSON() { throw new Error('nope') } }",
    "return 'é'.repeat(10)",
    "const a = []; for(;;) a.push({x:1, y:[1,2]})",
  ]
  for (const c of cases) {
    const t0 = performance.now()
    const out = await runWith(rt, c, { invoke, limits: { timeoutMs: 3000, memoryBytes: 16 << 20 } })
    console.log(JSON.stringify(c), (performance.now() - t0).toFixed(1), JSON.stringify(out).slice(0, 300), rt.replacedModules)
  }
  const mod = await loadQuickJsModule()
  for (const c of ["const a = []; for(;;) a.push('x'.repeat(1000) + a.length)", "const a = []; for(;;) a.push('x'.repeat(1 << 20) + a.length)", "let s = 'ab'; for(;;) s = s + s"]) {
    const t0 = performance.now()
    const out = await runScript(mod, c, { invoke, limits: { ...testLimits, timeoutMs: 3000, memoryBytes: 16 << 20 } })
    console.log(JSON.stringify(c), (performance.now() - t0).toFixed(1), JSON.stringify(out).slice(0, 300), mod.getWasmMemory().buffer.byteLength >> 20, "MiB")
  }
}, 60_000)
