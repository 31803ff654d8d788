/**
 * A test Worker (not shipped): the Worker's own QuickJS setup with the clock frozen as deployed Workers freeze it
 * during synchronous work, so only the interrupt-call budget can end a CPU-bound script. `?warm=1` first runs a
 * script with the clock moving, which calibrates the budget as production's I/O would.
 */
import { defaultLimits } from "@switchboard/core"
import type { InvokeTool } from "@switchboard/core"
import { isolateRuntime } from "../../src/quickjs.js"

const noTools: InvokeTool = async (path) => ({
  ok: false,
  error: { code: "tool_not_found", message: `no tool ${path}` },
})

export default {
  async fetch(request: Request): Promise<Response> {
    const url = new URL(request.url)
    const runtime = await isolateRuntime()
    if (url.searchParams.get("warm") === "1")
      await runtime.run("let n = 0; for (let i = 0; i < 3e6; i++) n += i; return n", {
        invoke: noTools,
        limits: defaultLimits,
      })
    const realNow = Date.now
    const realPerformanceNow = performance.now.bind(performance)
    const frozenAt = realNow()
    Date.now = () => frozenAt
    performance.now = () => 0
    try {
      const outcome = await runtime.run(url.searchParams.get("code") ?? "while (true) {}", {
        invoke: noTools,
        limits: { ...defaultLimits, timeoutMs: Number(url.searchParams.get("timeoutMs") ?? 200) },
      })
      return Response.json({ outcome, clockMoved: Date.now() !== frozenAt })
    } finally {
      Date.now = realNow
      performance.now = realPerformanceNow
    }
  },
}
