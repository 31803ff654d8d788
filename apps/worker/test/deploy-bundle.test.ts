/**
 * The Worker exactly as `wrangler deploy` would upload it (dist/, made by `pnpm build` with `wrangler deploy
 * --dry-run`), in workerd, which refuses eval and WebAssembly compiled from bytes as production does: D1's row
 * bound, and a Worker not configured. An execute calling a real MCP server's tool, 401 without a key and the
 * refusal of stdio in Workers' words are cases of the HTTP scenario suite, on this same bundle
 * (http-scenarios.test.ts).
 */
import { fileURLToPath } from "node:url"
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { bundleTestWorker } from "./bundle-test-worker.js"
import { TEST_ADMIN_KEY, startWorker } from "../local/miniflare-worker.js"
import type { RunningWorker } from "../local/miniflare-worker.js"

const auth = { authorization: `Bearer ${TEST_ADMIN_KEY}`, "content-type": "application/json" }

describe("this workerd refuses what production refuses", () => {
  test("new Function, eval and WebAssembly from bytes all throw", async () => {
    const script = await bundleTestWorker(fileURLToPath(new URL("./workers/refusals.ts", import.meta.url)))
    const worker = await startWorker({ scriptPath: script })
    try {
      const refused = (await (await fetch(worker.url)).json()) as Record<string, string>
      expect(refused.newFunction).toMatch(/^EvalError/)
      expect(refused.eval).toMatch(/^EvalError/)
      expect(refused.wasmFromBytes).toMatch(/Wasm code generation disallowed/)
    } finally {
      await worker.close()
    }
  })
})

describe("a Worker with a malformed secret key", () => {
  test("answers a route 503 not_configured naming SWITCHBOARD_SECRET_KEY, and /healthz 200", async () => {
    const worker = await startWorker({ bindings: { SWITCHBOARD_SECRET_KEY: "short" } })
    try {
      const tools = await fetch(`${worker.url}/v1/tools`, { headers: auth })
      expect(tools.status).toBe(503)
      const body = (await tools.json()) as { error: { code: string; message: string } }
      expect(body.error.code).toBe("not_configured")
      expect(body.error.message).toContain("SWITCHBOARD_SECRET_KEY")
      expect(body.error.message).not.toContain("SWITCHBOARD_ADMIN_KEY")
      const health = await fetch(`${worker.url}/healthz`)
      expect(health.status).toBe(200)
      expect(await health.json()).toEqual({ ok: true })
    } finally {
      await worker.close()
    }
  })
})

describe("the deploy bundle", () => {
  let worker: RunningWorker
  beforeAll(async () => {
    worker = await startWorker()
  })
  afterAll(async () => {
    await worker?.close()
  })

  test("a record at the Worker's largest code and logs fits one D1 row; a larger body is refused up front", async () => {
    // 900 KB of code (a comment) and logs up to the 512 KiB limit: together under D1's ~2 MB row
    const code = `// ${"x".repeat(900_000)}\nfor (let i = 0; i < 600; i++) console.log("${"y".repeat(1_000)}")\nreturn "done"`
    const executed = await fetch(`${worker.url}/v1/execute`, {
      method: "POST",
      headers: auth,
      body: JSON.stringify({ code }),
    })
    const body = (await executed.json()) as { ok: boolean; stored: boolean; executionId: string }
    expect(body).toMatchObject({ ok: true, stored: true })
    const record = await fetch(`${worker.url}/v1/executions/${body.executionId}`, { headers: auth })
    expect(((await record.json()) as { execution: { code: string } }).execution.code).toBe(code)
    const tooLarge = await fetch(`${worker.url}/v1/execute`, {
      method: "POST",
      headers: auth,
      body: JSON.stringify({ code: `// ${"x".repeat(1_100_000)}` }),
    })
    expect(tooLarge.status).toBe(413)
    expect(((await tooLarge.json()) as { error: { code: string } }).error.code).toBe("body_too_large")
  })

  test("a result larger than a D1 row is stored across rows and read back byte for byte", async () => {
    // about 3.3 MB of UTF-8: past D1's ~2 MB row, with astral characters across every part boundary
    const code =
      'return Array.from({ length: 40000 }, (_, i) => "line " + i + " \u{1F600} caf\u00e9 \u2603 " + "z".repeat(50)).join("\\n")'
    const executed = await fetch(`${worker.url}/v1/execute`, {
      method: "POST",
      headers: auth,
      body: JSON.stringify({ code }),
    })
    const body = (await executed.json()) as { ok: boolean; stored: boolean; executionId: string; result: string }
    expect(body).toMatchObject({ ok: true, stored: true })
    expect(new TextEncoder().encode(body.result).byteLength).toBeGreaterThan(3_000_000)
    const output = await fetch(`${worker.url}/v1/executions/${body.executionId}/output`, { headers: auth })
    expect(output.status).toBe(200)
    expect(await output.text()).toBe(body.result)
    const page = await fetch(`${worker.url}/v1/executions/${body.executionId}/output?offset=39999&limit=1`, {
      headers: auth,
    })
    expect(((await page.json()) as { lines: string[] }).lines).toEqual([
      `line 39999 \u{1F600} caf\u00e9 \u2603 ${"z".repeat(50)}`,
    ])
  })
})
