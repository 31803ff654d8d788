import type { InvokeTool, ToolResult } from "@switchboard/core"
import { afterAll, describe, expect, test } from "vitest"
import { createWorkerPoolRuntime } from "../src/node/index.js"
import type { WorkerPoolOptions, WorkerPoolRuntime } from "../src/node/index.js"
import { expectError, expectValue, recordingInvoke, runWith } from "./helpers.js"
import { describeCodeRuntimeContract } from "./runtime-contract.js"

const pools: WorkerPoolRuntime[] = []
// the pools stay open until the end: a worker some test grew is not replaced in the background of a later one,
// timed, test (the tests of the idle trim set their own)
const makePool = async (options: WorkerPoolOptions = {}) => {
  const pool = await createWorkerPoolRuntime({ size: 2, trimIdleAfterMs: 10 * 60_000, ...options })
  pools.push(pool)
  return pool
}
afterAll(() => Promise.all(pools.map((pool) => pool.close())))

describeCodeRuntimeContract("worker pool", () => makePool())
describeCodeRuntimeContract("worker pool, a fresh sandbox per run", () => makePool({ snapshots: false }))

/** Waits until every replaced worker has started again. */
const settled = async (pool: WorkerPoolRuntime) => {
  for (let tries = 0; tries < 500; tries++) {
    const stats = pool.stats()
    if (stats.starting === 0 && stats.idle + stats.busy === stats.size) return stats
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
  throw new Error(`the pool did not refill: ${JSON.stringify(pool.stats())}`)
}

const rssMiB = () => process.memoryUsage().rss / 2 ** 20

describe("worker pool: hard limits by killing the worker", () => {
  // The overshoot is the one timed assertion the issue asks for: at most 50 ms past the deadline,
  // measured from the moment the run reached the pool. Each of these loops sits inside one builtin,
  // which QuickJS's interrupt handler cannot stop.
  test.each([
    ["for(;;) 'x'.repeat(1e7)", "for (;;) 'x'.repeat(1e7)"],
    ["for(;;) JSON.parse(bigText)", "const bigText = '[' + '1,'.repeat(1e6) + '1]'\nfor (;;) JSON.parse(bigText)"],
    ["for(;;) new Array(1e5).fill(1)", "for (;;) new Array(1e5).fill(1)"],
  ])("%s ends with timeout at most 50 ms past its deadline", async (_name, code) => {
    const pool = await makePool({ size: 1 })
    await settled(pool)
    const timeoutMs = 300
    const started = performance.now()
    const error = expectError(await runWith(pool, code, { limits: { timeoutMs, memoryBytes: 64 << 20 } }))
    const overshoot = performance.now() - started - timeoutMs
    console.log(`deadline overshoot, ${_name}: ${overshoot.toFixed(1)} ms`)
    expect(error.code).toBe("timeout")
    expect(error.message).toContain(`${timeoutMs} ms`)
    expect(overshoot).toBeLessThanOrEqual(50)
    expect(pool.stats().replaced).toBe(1)
    expect(expectValue(await runWith(pool, "return 'next'"))).toBe("next")
  })

  test("memory cases fail with memory_limit, the worker is replaced and RSS returns near idle", async () => {
    const pool = await makePool({ size: 1, memoryCapBytes: 128 << 20 })
    await settled(pool)
    const idle = rssMiB()
    const cases = [
      "const a = []\nfor (;;) a.push('x'.repeat(1 << 20) + a.length)",
      "const k = []\nfor (let i = 0; i < 300; i++) k.push(new Uint8Array(1 << 19))\nreturn k.length",
      "const a = []\nfor (;;) a.push({ i: a.length, s: [1, 2, 3] })",
    ]
    const figures: string[] = []
    for (const [index, code] of cases.entries()) {
      let peak = 0
      const sampler = setInterval(() => (peak = Math.max(peak, rssMiB())), 5)
      const error = expectError(await runWith(pool, code, { limits: { memoryBytes: 64 << 20, timeoutMs: 20_000 } }))
      clearInterval(sampler)
      expect(error.code).toBe("memory_limit")
      expect(error.message).toContain(String(64 << 20))
      expect(pool.stats().replaced).toBe(index + 1)
      await settled(pool)
      figures.push(`case ${index + 1}: peak ${peak.toFixed(0)} MiB, after ${rssMiB().toFixed(0)} MiB`)
    }
    const after = rssMiB()
    console.log(`RSS idle ${idle.toFixed(0)} MiB; after each memory case (worker replaced): ${figures.join(", ")}`)
    expect(after - idle).toBeLessThan(100)
    expect(expectValue(await runWith(pool, "return 'x'.repeat(1 << 20).length"))).toBe(1 << 20)
  }, 60_000)

  test.each([true, false])(
    "allocating in a promise job keeps the outcome and the worker (snapshots: %s)",
    async (snapshots) => {
      const pool = await makePool({ size: 1, snapshots })
      await settled(pool)
      const code =
        "Promise.resolve().then(() => { const a = []; for (let i = 0; i < 2e5; i++) a.push({ i }) })\nreturn 'done'"
      expect(expectValue(await runWith(pool, code, { limits: { memoryBytes: 64 << 20, timeoutMs: 10_000 } }))).toBe(
        "done",
      )
      expect(expectValue(await runWith(pool, "return [typeof globalThis.a, 1 + 1]"))).toEqual(["undefined", 2])
      expect(pool.stats().replaced).toBe(0)
    },
  )

  test("a run that poisons its module keeps its outcome, and a run queued behind it runs on the replacement", async () => {
    // a 1 MiB V8 stack overflows before QuickJS's 1 MiB limit: V8 throws through the wasm frames
    const pool = await makePool({ size: 1, resourceLimits: { stackSizeMb: 1 } })
    await settled(pool)
    const poisoning = runWith(pool, "function f(n: number): number { return f(n + 1) + 1 }\nreturn f(0)", {
      limits: { stackBytes: 1 << 20 },
    })
    const queued = runWith(pool, "return 1 + 1")
    expect(expectError(await poisoning).code).toBe("stack_overflow")
    expect(expectValue(await queued)).toBe(2)
    expect(pool.stats().replaced).toBe(1)
    expect(expectValue(await runWith(pool, "return 'next'"))).toBe("next")
  })

  test("a stack limit past what the module's C stack holds is cut to maxStackBytes, not a failure of every script", async () => {
    // a V8 stack deep enough that QuickJS's own limit is what stops the recursion
    const pool = await makePool({ size: 1, resourceLimits: { stackSizeMb: 64 } })
    const limits = { stackBytes: 16 << 20, timeoutMs: 20_000 }
    expect(expectValue(await runWith(pool, "return 1 + 1", { limits }))).toBe(2)
    const error = expectError(
      await runWith(pool, "function f(n: number): number { return f(n + 1) + 1 }\nreturn f(0)", { limits }),
    )
    expect(error.code).toBe("stack_overflow")
  })

  test("each execution on a worker starts pristine and draws its own random numbers", async () => {
    const pool = await makePool({ size: 1 })
    const seen = new Set<unknown>()
    for (let run = 0; run < 20; run++) {
      const value = expectValue(
        await runWith(
          pool,
          "const first = [typeof (globalThis as any).marker, ({} as any).p]; (globalThis as any).marker = 1; " +
            "Object.prototype.p = 1; return [first, Math.random()]",
        ),
      ) as [unknown, number]
      expect(value[0]).toEqual(["undefined", null])
      seen.add(value[1])
    }
    expect(seen.size).toBe(20)
  })

  test("an abort answers at once; a worker stuck in a builtin is then killed and replaced", async () => {
    const pool = await makePool({ size: 1 })
    const controller = new AbortController()
    setTimeout(() => controller.abort(), 100)
    const error = expectError(
      await runWith(pool, "for (;;) 'x'.repeat(1e7)", { signal: controller.signal, limits: { timeoutMs: 10_000 } }),
    )
    expect(error.code).toBe("aborted")
    expect(expectValue(await runWith(pool, "return 'after'"))).toBe("after")
    expect(pool.stats().replaced).toBe(1)
  })

  test("an abort while the run waits on a tool ends it without killing the worker", async () => {
    const pool = await makePool({ size: 1 })
    const controller = new AbortController()
    const invoke: InvokeTool = () => {
      setTimeout(() => controller.abort(), 10)
      return new Promise<ToolResult>(() => {})
    }
    expect(expectError(await runWith(pool, "await tools.a.b({})", { invoke, signal: controller.signal })).code).toBe(
      "aborted",
    )
    expect(expectValue(await runWith(pool, "return 'same worker'"))).toBe("same worker")
    expect(pool.stats().replaced).toBe(0)
  })

  test("the main thread keeps running while a worker is stuck in a builtin", async () => {
    const pool = await makePool({ size: 1 })
    let ticks = 0
    const interval = setInterval(() => ticks++, 5)
    const outcome = await runWith(pool, "for (;;) 'x'.repeat(1e7)", { limits: { timeoutMs: 300 } })
    clearInterval(interval)
    expect(expectError(outcome).code).toBe("timeout")
    expect(ticks).toBeGreaterThan(10)
  })
})

describe("worker pool: memory a run grew is handed back when its worker goes idle", () => {
  // a 40 MiB string grows the worker's memory to about 45 MiB: under recycleAboveBytes, over trimIdleAboveBytes
  const grow = "return 'x'.repeat(40 << 20).length"
  const limits = { memoryBytes: 64 << 20 }
  const replaced = async (pool: WorkerPoolRuntime, count: number, withinMs: number) => {
    const until = performance.now() + withinMs
    while (pool.stats().replaced < count && performance.now() < until)
      await new Promise((resolve) => setTimeout(resolve, 20))
    return pool.stats().replaced
  }

  test("a worker left idle with grown memory is replaced, and the process's RSS drops by most of what it grew", async () => {
    const pool = await makePool({ size: 1, trimIdleAfterMs: 300 })
    await settled(pool)
    const idle = rssMiB()
    expect(expectValue(await runWith(pool, grow, { limits }))).toBe(40 << 20)
    // kept after the run itself: recycleAboveBytes is not passed
    expect(pool.stats().replaced).toBe(0)
    const grown = rssMiB()
    expect(await replaced(pool, 1, 10_000)).toBe(1)
    await settled(pool)
    // the old thread's memory goes back as it ends, after its replacement may have started
    const until = performance.now() + 10_000
    let after = rssMiB()
    while (grown - after <= (grown - idle) / 2 && performance.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, 50))
      after = rssMiB()
    }
    console.log(
      `RSS idle ${idle.toFixed(0)} MiB, grown ${grown.toFixed(0)} MiB, after the idle trim ${after.toFixed(0)} MiB`,
    )
    // the run did grow it, or the drop below would prove nothing (by about 38 MiB; this process's other pools move
    // its RSS by a few MiB meanwhile: 33.6 once in eleven runs of the file)
    expect(grown - idle).toBeGreaterThan(25)
    expect(grown - after).toBeGreaterThan((grown - idle) / 2)
    expect(expectValue(await runWith(pool, "return 'next'"))).toBe("next")
  }, 30_000)

  test("a grown worker that keeps getting runs is not replaced, and one that did not grow never is", async () => {
    const pool = await makePool({ size: 1, trimIdleAfterMs: 400 })
    await settled(pool)
    for (let i = 0; i < 10; i++) expect(expectValue(await runWith(pool, "return 1 + 1"))).toBe(2)
    expect(await replaced(pool, 1, 1_500)).toBe(0)
    expect(expectValue(await runWith(pool, grow, { limits }))).toBe(40 << 20)
    // idle for 50 ms at a time, over two and a half times the trim's wait: each run starts its idle spell afresh
    for (let i = 0; i < 20; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50))
      expect(expectValue(await runWith(pool, "return 1 + 1"))).toBe(2)
    }
    expect(pool.stats().replaced).toBe(0)
    // once it stops getting runs, it goes
    expect(await replaced(pool, 1, 10_000)).toBe(1)
  }, 30_000)

  test("a worker as big as when it started is never replaced, however low the bound", async () => {
    const pool = await makePool({ size: 1, trimIdleAboveBytes: 1, trimIdleAfterMs: 100 })
    await settled(pool)
    expect(await replaced(pool, 1, 1_500)).toBe(0)
  })

  test("grown workers that go idle together are replaced one at a time", async () => {
    const pool = await makePool({ size: 2, trimIdleAfterMs: 300 })
    await settled(pool)
    const runs = [runWith(pool, grow, { limits }), runWith(pool, grow, { limits })]
    expect((await Promise.all(runs)).map(expectValue)).toEqual([40 << 20, 40 << 20])
    // sampled until both replacements have started too: the second trim may come just before the loop would end
    let mostStarting = 0
    const until = performance.now() + 15_000
    for (let stats = pool.stats(); stats.replaced < 2 || stats.starting > 0; stats = pool.stats()) {
      mostStarting = Math.max(mostStarting, stats.starting)
      if (performance.now() > until) break
      await new Promise((resolve) => setTimeout(resolve, 5))
    }
    expect(pool.stats().replaced).toBe(2)
    expect(mostStarting).toBe(1)
  }, 30_000)
})

describe("worker pool: a run whose worker is killed keeps its log", () => {
  test("the lines logged before a builtin overran the deadline come back with the timeout", async () => {
    const pool = await makePool({ size: 1 })
    const code = "console.log('started', 1)\nconsole.warn('délai 🚀')\nfor (;;) 'x'.repeat(1e7)"
    const outcome = await runWith(pool, code, { limits: { timeoutMs: 300 } })
    expect(expectError(outcome).code).toBe("timeout")
    expect(pool.stats().replaced).toBe(1)
    expect(outcome.logs).toEqual([
      { level: "log", message: "started 1" },
      { level: "warn", message: "délai 🚀" },
    ])
  })

  test("past the log limit, a killed run's log ends in the same marker as a finished run's", async () => {
    const pool = await makePool({ size: 1 })
    const lines = "for (let i = 0; i < 5; i++) console.log('line ' + i)\n"
    const limits = { maxLogLines: 3, timeoutMs: 300 }
    const finished = await runWith(pool, `${lines}return 1`, { limits })
    const killed = await runWith(pool, `${lines}for (;;) 'x'.repeat(1e7)`, { limits })
    expect(expectError(killed).code).toBe("timeout")
    expect(killed.logs).toHaveLength(4)
    expect(killed.logs.at(-1)?.message).toMatch(/^\[switchboard\] 2 more log lines \(\d+ bytes\) dropped/)
    expect(killed.logs).toEqual(finished.logs)
  })

  test("a killed run's log never reaches another run, and the next run's log is its own", async () => {
    const pool = await makePool({ size: 1 })
    await settled(pool)
    const killed = runWith(pool, "console.log('killed run')\nfor (;;) 'x'.repeat(1e7)", { limits: { timeoutMs: 300 } })
    // sent while the first runs: it waits for that worker, then starts on the replacement
    const next = runWith(pool, "console.log('next run')\nreturn 2")
    expect((await killed).logs).toEqual([{ level: "log", message: "killed run" }])
    const outcome = await next
    expect(expectValue(outcome)).toBe(2)
    expect(outcome.logs).toEqual([{ level: "log", message: "next run" }])
  })
})

describe("worker pool: queueing and fairness", () => {
  test("runs beyond the pool wait in the queue; past its bound the pool answers overloaded at once", async () => {
    const pool = await makePool({ size: 1, queueLimit: 1 })
    let release: (() => void) | undefined
    const gate = new Promise<void>((resolve) => (release = resolve))
    const invoke: InvokeTool = async () => {
      await gate
      return { ok: true, data: "released" }
    }
    const first = runWith(pool, "return (await tools.a.wait({})).data", { invoke })
    const queued = runWith(pool, "return 'queued ran'")
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(pool.stats()).toMatchObject({ busy: 1, queued: 1 })
    const refused = expectError(await runWith(pool, "return 'refused'"))
    expect(refused.code).toBe("overloaded")
    expect(refused.retryAfterSeconds).toBeGreaterThanOrEqual(1)
    release?.()
    expect(expectValue(await first)).toBe("released")
    expect(expectValue(await queued)).toBe("queued ran")
  })

  test("Retry-After follows the queue and typical run times, not a run that timed out (it said 60 s for 50 ms runs)", async () => {
    const pool = await makePool({ size: 1, queueLimit: 8 })
    for (let i = 0; i < 20; i++) expectValue(await runWith(pool, "return 1"))
    // two runs that spin to a 2 s deadline: an average of durations would now say several seconds
    for (let i = 0; i < 2; i++)
      expect(expectError(await runWith(pool, "for (;;) {}", { limits: { timeoutMs: 2_000 } })).code).toBe("timeout")
    let release: (() => void) | undefined
    let started: (() => void) | undefined
    const gate = new Promise<void>((resolve) => (release = resolve))
    const running = new Promise<void>((resolve) => (started = resolve))
    const holding = runWith(pool, "return (await tools.a.wait({})).data", {
      invoke: async () => (started?.(), await gate, { ok: true, data: "released" }),
    })
    // the worker holds it before the queue fills: on a busy machine it could still be queued itself
    await running
    const queued = Array.from({ length: 8 }, () => runWith(pool, "return 2"))
    const refused = expectError(await runWith(pool, "return 'refused'"))
    expect(refused.code).toBe("overloaded")
    expect(refused.retryAfterSeconds).toBe(1)
    release?.()
    expect(expectValue(await holding)).toBe("released")
    for (const run of queued) expect(expectValue(await run)).toBe(2)
  }, 20_000)

  test("a queued run's deadline counts its wait: it times out in the queue without running", async () => {
    const pool = await makePool({ size: 1, queueLimit: 4 })
    const busy = runWith(pool, "while (true) {}", { limits: { timeoutMs: 400 } })
    const { invoke, calls } = recordingInvoke({ "a.b": () => 1 })
    const waiting = expectError(await runWith(pool, "await tools.a.b({})", { invoke, limits: { timeoutMs: 100 } }))
    expect(waiting.code).toBe("timeout")
    expect(waiting.message).toContain("100 ms")
    expect(calls).toEqual([])
    expect(expectError(await busy).code).toBe("timeout")
  })

  test("a hostile run on one worker does not hold up runs on the others", async () => {
    const pool = await makePool({ size: 2 })
    await settled(pool)
    let hostileDone = false
    const hostile = runWith(pool, "for (;;) 'x'.repeat(1e7)", { limits: { timeoutMs: 1_000 } }).then((outcome) => {
      hostileDone = true
      return outcome
    })
    for (let index = 0; index < 5; index++) expect(expectValue(await runWith(pool, `return ${index}`))).toBe(index)
    expect(hostileDone).toBe(false)
    expect(expectError(await hostile).code).toBe("timeout")
  })

  test("a late tool result never reaches the next run on the same worker (runs are tagged)", async () => {
    const pool = await makePool({ size: 1 })
    const delayed = (ms: number, data: string): Promise<ToolResult> =>
      new Promise((resolve) => setTimeout(() => resolve({ ok: true, data }), ms))
    const invoke: InvokeTool = (path) =>
      path === "a.late" ? delayed(150, "from the first run") : delayed(300, "for the second run")
    expect(
      expectError(await runWith(pool, "return await tools.a.late({})", { invoke, limits: { timeoutMs: 50 } })).code,
    ).toBe("timeout")
    // both runs' first tool call has call id 1 inside the worker: only the run id tells them apart
    expect(expectValue(await runWith(pool, "return (await tools.a.mine({})).data", { invoke }))).toBe(
      "for the second run",
    )
  })
})

// With every worker busy, a run is sent to a busy worker to start after its current run (sendWaiting in
// worker-pool.ts); until the worker starts it, the pool can take it back.
describe("worker pool: runs sent to a busy worker to wait", () => {
  /** a tool that answers only when the test opens the gate */
  const gated = () => {
    let open: (() => void) | undefined
    const gate = new Promise<void>((resolve) => (open = resolve))
    const invoke: InvokeTool = async () => {
      await gate
      return { ok: true, data: "opened" }
    }
    return { invoke, open: () => open?.() }
  }

  test("many more runs than workers each get their own result", async () => {
    const pool = await makePool({ size: 2, queueLimit: 256 })
    const outcomes = await Promise.all(Array.from({ length: 200 }, (_, index) => runWith(pool, `return ${index} * 2`)))
    expect(outcomes.map(expectValue)).toEqual(Array.from({ length: 200 }, (_, index) => index * 2))
    expect(pool.stats()).toMatchObject({ queued: 0, busy: 0, replaced: 0 })
  })

  test("a run waiting behind a long run is taken back by the worker that frees up first", async () => {
    const pool = await makePool({ size: 2 })
    await settled(pool)
    const { invoke, open } = gated()
    const long = runWith(pool, "return (await tools.a.wait({})).data", { invoke })
    const short = runWith(pool, "let s = 0\nfor (let i = 0; i < 1e5; i++) s += i\nreturn s")
    // both workers are busy: this one waits behind the run that started first, the long one
    const behind = runWith(pool, "return 'not held up'")
    expect(expectValue(await short)).toBe(4999950000)
    expect(expectValue(await behind)).toBe("not held up")
    open()
    expect(expectValue(await long)).toBe("opened")
    expect(pool.stats().replaced).toBe(0)
  })

  test("a waiting run's deadline and an abort end it without running it, and the busy worker carries on", async () => {
    const pool = await makePool({ size: 1 })
    await settled(pool)
    const { invoke, open } = gated()
    const long = runWith(pool, "return (await tools.a.wait({})).data", { invoke })
    const { invoke: recording, calls } = recordingInvoke({ "a.b": () => 1 })
    const timedOut = expectError(
      await runWith(pool, "await tools.a.b({})", { invoke: recording, limits: { timeoutMs: 100 } }),
    )
    expect(timedOut.code).toBe("timeout")
    const controller = new AbortController()
    setTimeout(() => controller.abort(), 50)
    expect(
      expectError(await runWith(pool, "await tools.a.b({})", { invoke: recording, signal: controller.signal })).code,
    ).toBe("aborted")
    expect(calls).toEqual([])
    open()
    expect(expectValue(await long)).toBe("opened")
    expect(expectValue(await runWith(pool, "return 'same worker'"))).toBe("same worker")
    expect(pool.stats().replaced).toBe(0)
  })

  test("a run sent to a worker that then fails cleaning up never started there: it runs on the replacement", async () => {
    // no script can make putting the sandbox back fail: the pool's test option does, right after each answer
    const pool = await makePool({ size: 1, failAfterAnswer: true })
    await settled(pool)
    expect(expectValue(await runWith(pool, "return 'first'"))).toBe("first")
    // sent the moment the outcome came, before the worker reported that its module failed
    expect(expectValue(await runWith(pool, "return 1 + 1"))).toBe(2)
    expect(pool.stats().replaced).toBeGreaterThanOrEqual(1)
  })

  test("aborting a run the worker has not started, with another waiting behind it, loses neither", async () => {
    const pool = await makePool({ size: 2 })
    await settled(pool)
    const { invoke: wait, open } = gated()
    const long = runWith(pool, "return (await tools.a.wait({})).data", { invoke: wait, limits: { timeoutMs: 20_000 } })
    await new Promise((resolve) => setTimeout(resolve, 5))
    // many objects: disposing this run's sandbox is slow, the window in which the runs behind it are not started yet
    const heavy = runWith(
      pool,
      "globalThis.keep = []; for (let i = 0; i < 3e5; i++) keep.push({ i, s: [i] }); return 'a'",
      {
        limits: { memoryBytes: 256 << 20, timeoutMs: 10_000 },
      },
    )
    const { invoke } = recordingInvoke({ "a.b": () => "answered" })
    // deadlines far past the heavy run: a run's wait counts, and on a busy machine the heavy run takes seconds
    const first = runWith(pool, "return (await tools.a.b({})).data + ' first'", {
      invoke,
      limits: { timeoutMs: 15_000 },
    })
    const controller = new AbortController()
    const aborted = runWith(pool, "return 'aborted one'", { signal: controller.signal })
    const last = runWith(pool, "return (await tools.a.b({})).data + ' last'", { invoke, limits: { timeoutMs: 15_000 } })
    await heavy.then(() => controller.abort())
    const [firstOutcome, , lastOutcome] = await Promise.all([first, aborted, last])
    open()
    await long
    expect(expectValue(firstOutcome)).toBe("answered first")
    expect(expectValue(lastOutcome)).toBe("answered last")
  }, 30_000)

  test("a waiting run's deadline never leaves a worker idle while a run is queued", async () => {
    const pool = await makePool({ size: 2 })
    await settled(pool)
    const x = gated()
    const a = gated()
    const first = runWith(pool, "return (await tools.a.wait({})).data", {
      invoke: x.invoke,
      limits: { timeoutMs: 20_000 },
    })
    await new Promise((resolve) => setTimeout(resolve, 5))
    const second = runWith(pool, "return (await tools.a.wait({})).data", {
      invoke: a.invoke,
      limits: { timeoutMs: 20_000 },
    })
    const expiring = runWith(pool, "return 'expiring'", { limits: { timeoutMs: 100 } })
    const controller = new AbortController()
    const abortedRun = runWith(pool, "return 'aborted'", { signal: controller.signal })
    const queued = runWith(pool, "return 'queued'", { limits: { timeoutMs: 1_000 } })
    controller.abort()
    setTimeout(() => a.open(), 108)
    expect(expectValue(await queued)).toBe("queued")
    expect(expectError(await expiring).code).toBe("timeout")
    x.open()
    await Promise.all([first, second, abortedRun])
  })

  test("a run sent to wait at a worker that is to be recycled runs on the replacement", async () => {
    // every run grows memory past the threshold, so each worker serves one run
    const pool = await makePool({ size: 1, recycleAboveBytes: 1 })
    await settled(pool)
    const hold = (ms: number) => {
      const until = performance.now() + ms
      while (performance.now() < until);
    }
    const first = runWith(pool, "return 'first'")
    // the main thread is held: the worker answers, cleans up and goes idle before the pool hears of it
    hold(150)
    // as far as the pool knows the worker is busy: this run is sent to wait there, and reaches it idle
    const second = runWith(pool, "return 'second'")
    hold(50)
    expect(expectValue(await first)).toBe("first")
    expect(expectValue(await second)).toBe("second")
  })

  test("when the busy worker is killed, the run waiting behind it runs on the replacement", async () => {
    const pool = await makePool({ size: 1 })
    await settled(pool)
    const hostile = runWith(pool, "for (;;) 'x'.repeat(1e7)", { limits: { timeoutMs: 300 } })
    const behind = runWith(pool, "return 'ran on the replacement'", { limits: { timeoutMs: 10_000 } })
    expect(expectError(await hostile).code).toBe("timeout")
    expect(expectValue(await behind)).toBe("ran on the replacement")
    expect(pool.stats().replaced).toBe(1)
  })
})
