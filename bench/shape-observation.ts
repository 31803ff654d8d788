/**
 * Shape observation stays a small fraction of a call, whatever the value: inferShape on a ~1 MB and a ~10 MB
 * tool result, against what the same call already costs (decoding the MCP envelope, and moving the data into
 * QuickJS). Run: `pnpm bench:shapes`.
 */
import { performance } from "node:perf_hooks"
import * as Describe from "@switchboard/core/describe"
import { decodeToolResult } from "@switchboard/core"
import { newQuickJSWASMModuleFromVariant } from "quickjs-emscripten-core"
import variant from "@jitl/quickjs-wasmfile-release-sync"

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
const time = (fn: () => void, runs: number) => {
  for (let i = 0; i < 3; i++) fn()
  const times: number[] = []
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now()
    fn()
    times.push(performance.now() - t0)
  }
  return median(times)
}

const records = (n: number) =>
  Array.from({ length: n }, (_, i) => ({
    id: i,
    name: `record ${i}`,
    email: `user${i}@example.com`,
    active: i % 2 === 0,
    score: i / 7,
    tags: ["a", "b", String(i)],
    address: { city: "Oslo", zip: String(1000 + i) },
    note: i % 5 ? null : "five",
  }))

const QuickJS = await newQuickJSWASMModuleFromVariant(variant)
for (const n of [5_000, 50_000]) {
  const value = { items: records(n), total: n }
  const text = JSON.stringify(value)
  const envelope = { content: [{ type: "text", text }] }
  const infer = time(() => Describe.inferShape(value), 9)
  const decode = time(() => decodeToolResult("mcp-call-tool-result-v2", envelope), 5)
  const context = QuickJS.newContext()
  const parse = context.unwrapResult(context.evalCode("(s) => JSON.parse(s)"))
  const intoSandbox = time(
    () =>
      context
        .newString(text)
        .consume((s) => context.unwrapResult(context.callFunction(parse, context.undefined, s)).dispose()),
    5,
  )
  parse.dispose()
  context.dispose()
  const call = decode + intoSandbox
  console.log(
    `${(text.length / 1e6).toFixed(1)} MB tool result: inferShape ${infer.toFixed(2)} ms; decode ${decode.toFixed(1)} ms + into QuickJS ${intoSandbox.toFixed(1)} ms = ${call.toFixed(1)} ms; observation is ${((infer / call) * 100).toFixed(2)}% of the call`,
  )
}
