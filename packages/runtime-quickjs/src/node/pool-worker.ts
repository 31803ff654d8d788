/**
 * The code of one pool worker thread. It holds one QuickJS module and runs one script at a time in it,
 * each in a fresh sandbox (runtime and context) used by that run only. Tool calls go to the main thread
 * as messages, those made in one turn together. Between runs the worker does the fixed work off the request
 * path: after posting a run's outcome it prepares the next sandbox (runtime, context, host functions) and then
 * disposes that run's.
 * Bundled by scripts/build-worker.mjs into dist/pool-worker.mjs (`pnpm build`), which is what a Worker loads:
 * a worker thread cannot load TypeScript on its own.
 */
import { workerData } from "node:worker_threads"
import type * as Render from "@switchboard/core/render"
import type { InvokeTool, RunOutcome } from "@switchboard/core"
import { renderResult } from "@switchboard/core/render"
import { loadQuickJsModule } from "../load-module.js"
import { runInSandbox } from "../run-script.js"
import { createSandbox, disposeSandbox } from "../sandbox.js"
import type { Sandbox } from "../sandbox.js"
import { snapshotSandbox } from "../sandbox-snapshot.js"
import type { SandboxSnapshot } from "../sandbox-snapshot.js"
import { HandoffEnd, Signal, idlePollMs } from "./handoff.js"
import { LogMirrorWriter } from "./log-mirror.js"
import type { FromWorker, PoolWorkerData, PostedOutcome, ToolCall, ToWorker } from "./protocol.js"

interface CurrentRun {
  runId: number
  /** tool calls waiting for the main thread, by call id */
  pending: Map<number, (resultJson: string) => void>
  abort: AbortController
}

const { memoryCapBytes, recycleAboveBytes, snapshots, clearMemory, failAfterAnswer, port, signals, logs } =
  workerData as PoolWorkerData
const module = await loadQuickJsModule({ memoryCapBytes })
const wasmBytes = () => module.getWasmMemory().buffer.byteLength
const handoff = new HandoffEnd<ToWorker, FromWorker>(
  port,
  new Int32Array(signals),
  Signal.toMain,
  Signal.toWorker,
  (message) => onMessage(message),
)
const post = (message: FromWorker) => handoff.send(message)
/** each run's log as it is written, for the pool to read if it has to kill this thread */
const logMirror = new LogMirrorWriter(logs)

/**
 * Polling instead of sleeping (handoff.ts). An idle worker the pool marked hot polls `idlePollMs` for its next
 * run. A worker whose script waits on tool results polls for them when the host has been answering its calls
 * within `resultPollCapMs`, for up to twice the usual answer time: then the result finds it awake, where a
 * sleeping thread would cost more to wake than the wait. Meanwhile the main thread sleeps until the tool answers (see
 * worker-pool.ts), and the pool allows this only while the polling threads have cores of their own.
 */
const resultPollCapMs = 1
const mayPoll = () => Atomics.load(handoff.signals, Signal.mayPoll) === 1

/**
 * A moving average of how long the host took to answer this worker's tool calls, in ms (the host's own time:
 * a round trip measured here would include the wake-up that not polling costs).
 */
let typicalCallMs = 0

/**
 * The current run's tool calls not yet posted: those made in one turn go to the pool as one message. It is empty
 * by the time the run's outcome is posted, so it never holds calls of two runs.
 */
let outbox: { runId: number; calls: ToolCall[] } | undefined

const postCalls = () => {
  if (!outbox) return
  post({ type: "calls", runId: outbox.runId, calls: outbox.calls })
  outbox = undefined
}

const queueCall = (runId: number, call: ToolCall) => {
  if (outbox) return void outbox.calls.push(call)
  outbox = { runId, calls: [call] }
  queueMicrotask(postCalls)
}

/** Called by the run's driver when the script waits on tool results and nothing else can run. */
const awaitResults = () => {
  // the driver may get here before the microtask that posts the calls just made
  postCalls()
  if (typicalCallMs < resultPollCapMs && mayPoll())
    handoff.spin(Math.min(resultPollCapMs, 2 * typicalCallMs + 0.05), mayPoll)
}

let current: CurrentRun | undefined
/** from a run's start until its sandbox is replaced: runs sent meanwhile wait here, in order (Signal.claims) */
let busy = false
const waiting: RunMessage[] = []
/** the sandbox the next run gets, prepared while the worker was idle */
let spare: Sandbox | undefined
/** the module can no longer be trusted: the pool replaces this worker and runs nothing more here */
let poisoned = false
/** the last run grew memory past recycleAboveBytes: the pool replaces this worker, which starts nothing more */
let retiring = false

// invokeJson is always given, so invoke is never called
const unused: InvokeTool = () => Promise.reject(new Error("the pool worker calls tools through invokeJson"))

/**
 * When the module's layout allows (sandbox-snapshot.ts), every run uses one sandbox, put back after each run into
 * the state it was made in: that costs a tenth of making a new one and disposing the old. Otherwise `spare` is
 * a fresh sandbox for each run.
 */
let snapshot: SandboxSnapshot | undefined

const restoreSnapshot = (from: SandboxSnapshot): boolean => {
  try {
    from.restore()
    spare = from.sandbox
    return true
  } catch {
    return false
  }
}

/**
 * The first snapshot is taken as the worker starts, with the sandbox's Date made on each run's first read of it,
 * and taken once more after the first run, with it made (sandbox-snapshot.ts, `makeDate`): making it at start
 * delayed the worker's readiness on a busy machine. Should that fail, the worker goes on without a snapshot.
 */
let dateMade = false

const remakeSnapshot = (from: SandboxSnapshot) => {
  dateMade = true
  try {
    snapshot = snapshotSandbox(module, from.sandbox, { clearMemory, makeDate: true })
  } catch {
    return poison()
  }
  if (snapshot) return
  // changed since its snapshot, the sandbox serves no more runs: each gets a fresh one, as without snapshots
  spare = undefined
  if (!disposeSandbox(from.sandbox)) return poison()
  prepareSpare(true)
}

const takeSpare = () => {
  const sandbox = spare
  spare = undefined
  return sandbox
}

/** Tells the pool after the fact (the outcome already went out): it re-queues a run it sent here meanwhile. */
const poison = () => {
  poisoned = true
  post({ type: "poisoned" })
}

const prepareSpare = (afterRun: boolean) => {
  try {
    spare = createSandbox(module)
  } catch {
    // before the first run nothing went out yet: that run creates its own sandbox and reports the failure
    if (afterRun) poison()
  }
}

type RunMessage = Extract<ToWorker, { type: "run" }>

/** Starts a run, unless it was sent to wait and the pool took it back first. False when it did not start. */
const start = (message: RunMessage): boolean => {
  if (poisoned || retiring) return false
  const { claim, runId } = message
  if (claim !== undefined && Atomics.compareExchange(handoff.signals, claim, runId, 0) !== runId) return false
  void run(message)
  return true
}

/** a text shorter than this costs the main thread about as much to receive as to make, so it is not posted */
const minPostedChars = 2048

/**
 * The outcome with its result rendered as the caller renders it (core's renderResult), here rather than on the
 * main thread: a large value's text costs the thread that makes it tens of milliseconds. An object or array goes
 * as its JSON text (`rendered.json`) in place of the value: a structured clone of a large object costs the main
 * thread far more to receive than a string of the same size, and the main thread parses it only if something
 * reads the value (core's parseOnRead). A short text without media, and a rendering that
 * throws, are left to the caller, which renders as it would without a pool.
 */
const withRendered = (outcome: RunOutcome, render: Render.RenderOptions | undefined): PostedOutcome => {
  if (!render || !outcome.ok) return outcome
  try {
    const rendered = renderResult(outcome.value, render)
    if (rendered.text.length < minPostedChars && rendered.media.length === 0) return outcome
    const { value, ...rest } = outcome
    if (typeof value !== "object" || value === null) return { ...outcome, rendered }
    return { ...rest, rendered: { ...rendered, json: rendered.json ?? JSON.stringify(value) } }
  } catch {
    return outcome
  }
}

const run = async ({ runId, code, limits, deadline, render, determinism }: RunMessage) => {
  if (poisoned) return
  busy = true
  Atomics.store(handoff.signals, Signal.ready, 0)
  const pending: CurrentRun["pending"] = new Map()
  const abort = new AbortController()
  current = { runId, pending, abort }
  logMirror.begin(runId)
  let nextCallId = 0
  const invokeJson = (path: string, argsJson: string, clockReads?: readonly number[]) =>
    new Promise<string>((resolve) => {
      const callId = ++nextCallId
      pending.set(callId, resolve)
      queueCall(runId, clockReads ? { callId, path, argsJson, clockReads } : { callId, path, argsJson })
    })
  const result = await runInSandbox(module, code, {
    invoke: unused,
    invokeJson,
    limits,
    deadline,
    determinism,
    signal: abort.signal,
    takeSandbox: takeSpare,
    awaitingResults: awaitResults,
    logSink: logMirror,
  })
  current = undefined
  // answer first; the memory figure is final (WebAssembly memory never shrinks)
  const reportedBytes = wasmBytes()
  const outcome = withRendered(result.outcome, render)
  // calls the script made and never awaited go before its outcome: the pool records them (as cut off) with the run
  postCalls()
  post({ type: "done", runId, outcome, poisoned: result.poisoned, wasmBytes: reportedBytes })
  if (result.poisoned) {
    poisoned = true
    return
  }
  if (failAfterAnswer) return poison()
  const answeredAt = performance.now()
  const usedSnapshot = snapshot !== undefined
  if (snapshot) {
    // the run took the snapshot's sandbox unless its script did not compile: put it back as it was made
    if (!spare && !restoreSnapshot(snapshot)) return poison()
    if (!dateMade) remakeSnapshot(snapshot)
    if (poisoned) return
  } else {
    // the next sandbox first, then the clean-up: a run that comes meanwhile waits for the one, not both
    if (!spare) prepareSpare(true)
    if (poisoned) return
  }
  Atomics.store(handoff.signals, Signal.prepareUs, Math.round((performance.now() - answeredAt) * 1000))
  Atomics.store(handoff.signals, Signal.ready, 1)
  if (!usedSnapshot && !result.dispose()) return poison()
  busy = false
  // the pool replaces a worker that reported memory past this: runs sent to it are left for the pool to take back
  retiring = reportedBytes > recycleAboveBytes
  while (waiting.length > 0) if (start(waiting.shift()!)) return
  if (mayPoll()) handoff.spin(idlePollMs, mayPoll)
}

const onMessage = (message: ToWorker) => {
  if (message.type === "run") {
    if (busy) waiting.push(message)
    else start(message)
  } else if (message.runId !== current?.runId) return
  else if (message.type === "results") {
    const { pending } = current
    for (const { callId, resultJson, hostMs } of message.results) {
      const resolve = pending.get(callId)
      if (!resolve) continue
      pending.delete(callId)
      typicalCallMs = 0.8 * typicalCallMs + 0.2 * hostMs
      resolve(resultJson)
    }
  } else current.abort.abort()
}

prepareSpare(false)
try {
  if (spare && snapshots) snapshot = snapshotSandbox(module, spare, { clearMemory })
} catch {
  // QuickJS threw in the host while the snapshot was taken: nothing is sure of this module, so it makes a fresh
  // sandbox for the first run, and a failure there reports the worker poisoned
  spare = undefined
}
Atomics.store(handoff.signals, Signal.ready, 1)
post({ type: "ready", wasmBytes: wasmBytes() })
