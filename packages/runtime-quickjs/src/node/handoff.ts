/**
 * The channel between the pool and one worker: a MessagePort, plus counters in a SharedArrayBuffer that let
 * a side which expects a message soon poll for it instead of sleeping.
 *
 * Why: on a machine with few cores, waking a thread that went idle costs more than a whole trivial run, while a
 * thread that polls a shared counter sees a message almost at once and takes it with receiveMessageOnPort
 * (bench/README.md has the figures). Polling is always bounded; past its bound a side sleeps as usual and
 * the message arrives as an ordinary event, so nothing depends on the fast path.
 */
import { receiveMessageOnPort } from "node:worker_threads"
import type { MessagePort } from "node:worker_threads"

/** Int32 slots of the shared counters. */
export const Signal = {
  /** messages the pool has sent the worker */
  toWorker: 0,
  /** messages the worker has sent the pool */
  toMain: 1,
  /** 1 while the pool lets the worker poll: for tool results while it runs, for its next run while idle */
  mayPoll: 2,
  /** 1 while the worker is idle with a prepared sandbox */
  ready: 3,
  /** how long the worker last took to prepare its next sandbox after a run, in µs */
  prepareUs: 4,
  /**
   * Two claim words for runs the pool sent a busy worker to start after its current one (worker-pool.ts). Each
   * holds such a run's id until one side claims it with a compare-and-swap to 0: the worker when it starts the
   * run, the pool when it takes the run back (to start it elsewhere, or to end it). Whoever swaps first owns
   * it. Two, because a worker may hold two such runs: the one the pool already counts as its current run
   * (the run ahead of it is done) and one waiting behind that.
   */
  claims: [5, 6],
} as const

const always = () => true
/** a gap this long between two looks at the counter means the thread lost its core meanwhile */
const descheduledMs = 0.5
const backOffMs = 20

/**
 * How long an idle worker the pool marked hot polls for its next run (pool-worker.ts); the pool allows it only
 * while runs have been coming that soon (worker-pool.ts).
 */
export const idlePollMs = 1

export const signalsBytes = 7 * Int32Array.BYTES_PER_ELEMENT

export class HandoffEnd<In, Out> {
  /** the receive counter as of the last message taken */
  private seen = 0
  /** no polling before this time (performance.now()): the last poll was descheduled */
  private quietUntil = 0

  constructor(
    private readonly port: MessagePort,
    readonly signals: Int32Array,
    private readonly sendIndex: number,
    private readonly receiveIndex: number,
    private readonly onMessage: (message: In) => void,
  ) {
    port.on("message", (message: In) => {
      this.seen = Atomics.load(signals, receiveIndex)
      onMessage(message)
    })
  }

  send(message: Out): void {
    this.port.postMessage(message)
    Atomics.add(this.signals, this.sendIndex, 1)
  }

  /** Takes every message sent so far, synchronously, in order. True when there was one. */
  drain(): boolean {
    const count = Atomics.load(this.signals, this.receiveIndex)
    if (count === this.seen) return false
    this.seen = count
    let taken = false
    for (let next = receiveMessageOnPort(this.port); next; next = receiveMessageOnPort(this.port)) {
      taken = true
      this.onMessage(next.message as In)
    }
    return taken
  }

  /**
   * Polls for up to `ms`, while `wanted` holds, and takes what came. False when nothing did. A poll that
   * finds it was descheduled (another thread wanted this core) stops, and polling stays off for a while:
   * on a busy machine polling only takes turns with the work it waits for.
   */
  spin(ms: number, wanted: () => boolean = always): boolean {
    let now = performance.now()
    if (now < this.quietUntil) return this.drain()
    const until = now + ms
    for (;;) {
      if (this.drain()) return true
      const last = now
      now = performance.now()
      if (now - last > descheduledMs) {
        this.quietUntil = now + backOffMs
        return false
      }
      if (now >= until || !wanted()) return false
    }
  }

  /** The pool's end must not keep the process alive on its own (the worker decides that). */
  unref(): void {
    this.port.unref()
  }

  close(): void {
    this.port.close()
  }
}
