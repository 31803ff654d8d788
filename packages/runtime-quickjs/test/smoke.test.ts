import { test } from "vitest"
import { createQuickJsRuntime } from "../src/index.js"
import { runWith, recordingInvoke } from "./helpers.js"

test("smoke", async () => {
  const rt = await createQuickJsRuntime()
  const { invoke } = recordingInvoke({ "a.b": (x) => x })
  const cases = [
    "return 1+1", "return 1+1", "return 1+1", "return 1+1",
    "const a = []; for(;;) a.push({x:1, y:[1,2]})",
    "const a = []; for(;;) a.push('x'.repeat(1000) + a.length)",
    "await null; const a = []; for (let i = 0; i < 2e5; i++) a.push({ i }); return a.length",
    "return 1+1",
  ]
  for (const c of cases) {
    const t0 = performance.now()
    const out = await runWith(rt, c, { invoke, limits: { timeoutMs: 3000, memoryBytes: 16 << 20 } })
    console.log(JSON.stringify(c), (performance.now() - t0).toFixed(1), JSON.stringify(out).slice(0, 300), rt.replacedModules)
  }
})
