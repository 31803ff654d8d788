/**
 * One spec parse and compile in a fresh process, for bench/openapi.ts: `tsx parse-child.ts <file> <compile|json-only>`
 * prints `{ ms, peakMiB, beforeMiB, tools }` as JSON. `json-only` is the baseline: the engine's JSON.parse alone.
 * Run under `--max-old-space-size=N`, it fails when the compile does not fit a V8 heap of N MB.
 */
import { readFileSync } from "node:fs"
import { compileSpec, parseSpec } from "@switchboard/plugin-openapi"
import { peakDuring } from "./memory.js"

const [file, mode] = process.argv.slice(2) as [string, string]
const text = readFileSync(file, "utf8")
const measured = await peakDuring("self", async () => {
  const started = performance.now()
  const tools = mode === "json-only" ? (JSON.parse(text), 0) : compileSpec(parseSpec(text, file)).tools.length
  return { ms: performance.now() - started, tools }
})
console.log(JSON.stringify({ ...measured.value, peakMiB: measured.peakMiB, beforeMiB: measured.beforeMiB }))
