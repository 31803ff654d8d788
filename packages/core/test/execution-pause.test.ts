/**
 * When a run stops for a pause: once no call is left in flight, whatever order the calls settle in. A run that is
 * never stopped waits on promises that never settle until its time limit (30 s by default), holding its sandbox.
 * The Execution alone, with a stand-in for the tool invoker whose timing the test sets, so each order is certain.
 */
import { setFlagsFromString } from "node:v8"
import { runInNewContext } from "node:vm"
import { expect, it } from "vitest"
import { defaultLimits } from "../src/index.js"
import { Execution } from "../src/executor/execution.js"
import type { CallTool } from "../src/executor/execution.js"
import type { ReplayRecord } from "../src/executor/replay.js"

const needsPerson = { action: "require_approval" as const, rule: null, reason: "writes" }
const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** The call `id` of `path` ended, answered (its record as the invoker would keep it). */
const answered = (ctx: Execution, id: number, path: string) =>
  ctx.callEnded(id, {
    executionId: "e1",
    toolPath: path,
    encoding: "direct",
    startedAt: 0,
    durationMs: 0,
    ok: true,
    errorCode: null,
    dataBytes: null,
    outputSchemaError: null,
  })

/** every call needs a person's approval, unless it is the approved one; each takes `ms` to get there */
const invoker =
  (ms: number, made: string[]): CallTool =>
  async (ctx, call) => {
    const { path, args } = call
    await tick(ms)
    const id = ctx.callStarted(path, Date.now())
    if (ctx.isApproved(call.index)) {
      made.push(JSON.stringify(args))
      answered(ctx, id, path)
      return { ok: true, data: "written" }
    }
    return ctx.pauseAt(id, call, needsPerson)
  }

const executionOf = (callTool: CallTool) => ({ code: "", limits: defaultLimits, keyId: null, callTool, now: Date.now })

it("two calls in one Promise.all that both need a person stop the run", async () => {
  const execution = new Execution(executionOf(invoker(5, [])))
  void execution.invoke("fs.write", { text: "a" })
  void execution.invoke("fs.write", { text: "b" })
  await tick(50)
  expect(execution.paused?.call.path).toBe("fs.write")
  expect(execution.runSignal.aborted).toBe(true)
})

const record: ReplayRecord = {
  version: 1,
  code: "",
  limits: defaultLimits,
  seed: "00000000000000ff",
  clock: [],
  calls: [],
  pause: { index: 0, path: "fs.write", args: '{"text":"a"}' },
  startedAt: 0,
  runMs: 0,
  toolCallCount: 0,
}

for (const passMs of [0, 40]) {
  const when = passMs ? "before" : "after"
  it(`a resume whose other call pauses ${when} the approved one passes the pause: the approved call is made, and the run stops`, async () => {
    const made: string[] = []
    const execution = new Execution({
      ...executionOf(invoker(5, made)),
      replay: {
        record: { ...record },
        decision: { approved: true },
        approvalId: "a1",
        passPause: () => tick(passMs).then(() => true),
      },
    })
    void execution.invoke("fs.write", { text: "a" })
    void execution.invoke("fs.write", { text: "b" })
    await tick(120)
    expect(made).toEqual(['{"text":"a"}'])
    expect(execution.paused?.call.args).toBe('{"text":"b"}')
    expect(execution.runSignal.aborted).toBe(true)
  })
}

it("a declined resume whose other call paused first stops the run once the declined call is answered", async () => {
  const execution = new Execution({
    ...executionOf(invoker(5, [])),
    replay: {
      record: { ...record },
      decision: { approved: false, note: null, expired: false },
      approvalId: "a1",
      passPause: () => tick(40).then(() => true),
    },
  })
  const declined = execution.invoke("fs.write", { text: "a" })
  void execution.invoke("fs.write", { text: "b" })
  expect(await declined).toMatchObject({ ok: false, error: { code: "declined" } })
  await tick(20)
  expect(execution.runSignal.aborted).toBe(true)
})

it("an approved call that passes its pause after the run ended gets its signal already aborted: it goes nowhere", async () => {
  // what the plugin would see: whether the call's signal was aborted when the call reached it
  const seen: { args: string; aborted: boolean }[] = []
  const callTool: CallTool = async (ctx, call) => {
    seen.push({ args: JSON.stringify(call.args), aborted: ctx.signal.aborted })
    const id = ctx.callStarted(call.path, Date.now())
    answered(ctx, id, call.path)
    return { ok: true, data: "done" }
  }
  let pass: (passed: boolean) => void = () => {}
  const execution = new Execution({
    ...executionOf(callTool),
    replay: {
      record: { ...record },
      decision: { approved: true },
      approvalId: "a1",
      passPause: () => new Promise((resolve) => (pass = resolve)),
    },
  })
  // the paused call (#1) waits to pass its pause; the script's next call is made at once and answered
  void execution.invoke("fs.write", { text: "a" })
  await execution.invoke("fs.read", { path: "b" })
  // the script returned without awaiting the first: the run ends with no call in flight
  execution.end()
  pass(true)
  await tick(10)
  expect(seen).toEqual([
    { args: '{"path":"b"}', aborted: false },
    { args: '{"text":"a"}', aborted: true },
  ])
})

it("a paused execution is garbage once nothing refers to it: the calls it never answers keep nothing alive", async () => {
  setFlagsFromString("--expose-gc")
  const gc = runInNewContext("gc") as () => void
  const collected: string[] = []
  const registry = new FinalizationRegistry<string>((name) => collected.push(name))
  // an execution paused at its first call, and a second call made after the pause: neither is ever answered
  await (async () => {
    const execution = new Execution(executionOf(invoker(0, [])))
    registry.register(execution, "paused execution")
    void execution.invoke("fs.write", { text: "a" })
    await tick(10)
    expect(execution.paused?.call.path).toBe("fs.write")
    void execution.invoke("fs.write", { text: "b" })
    execution.end()
  })()
  for (let round = 0; round < 20 && collected.length === 0; round++) {
    gc()
    await tick(10)
  }
  expect(collected).toEqual(["paused execution"])
})
