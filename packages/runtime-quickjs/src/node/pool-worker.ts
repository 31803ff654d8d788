/**
 * The code of one pool worker thread. It holds one QuickJS module and runs one script at a time in it,
 * with runScript (a fresh runtime and context per run). Tool calls go to the main thread as messages.
 * Bundled by scripts/build-worker.mjs into pool-worker.generated.mjs, which is what a Worker loads: a
 * worker thread cannot load TypeScript on its own.
 */
import { parentPort, workerData } from "node:worker_threads"
import type { InvokeTool } from "@switchboard/core"
import { loadQuickJsModule } from "../load-module.js"
import { runScript } from "../run-script.js"
import type { FromWorker, PoolWorkerData, ToWorker } from "./protocol.js"

interface CurrentRun {
  runId: number
  /** tool calls waiting for the main thread, by call id */
  pending: Map<number, (resultJson: string) => void>
  abort: AbortController
}

const port = parentPort
if (!port) throw new Error("pool-worker runs in a worker thread")
const { memoryCapBytes } = workerData as PoolWorkerData
const module = await loadQuickJsModule({ memoryCapBytes })
const wasmBytes = () => module.getWasmMemory().buffer.byteLength
const post = (message: FromWorker) => port.postMessage(message)

let current: CurrentRun | undefined

// invokeJson is always given, so invoke is never called
const unused: InvokeTool = () => Promise.reject(new Error("the pool worker calls tools through invokeJson"))

const run = async ({ runId, code, limits }: Extract<ToWorker, { type: "run" }>) => {
  const pending = new Map<number, (resultJson: string) => void>()
  const abort = new AbortController()
  current = { runId, pending, abort }
  let nextCallId = 0
  const invokeJson = (path: string, argsJson: string) =>
    new Promise<string>((resolve) => {
      const callId = ++nextCallId
      pending.set(callId, resolve)
      post({ type: "invoke", runId, callId, path, argsJson })
    })
  const { outcome, poisoned } = await runScript(module, code, { invoke: unused, invokeJson, limits, signal: abort.signal })
  current = undefined
  post({ type: "done", runId, outcome, poisoned, wasmBytes: wasmBytes() })
}

port.on("message", (message: ToWorker) => {
  if (message.type === "run") void run(message)
  else if (message.runId !== current?.runId) return
  else if (message.type === "result") {
    const resolve = current.pending.get(message.callId)
    current.pending.delete(message.callId)
    resolve?.(message.resultJson)
  } else current.abort.abort()
})

post({ type: "ready", wasmBytes: wasmBytes() })
