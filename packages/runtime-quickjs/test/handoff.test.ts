import { MessageChannel, Worker } from "node:worker_threads"
import { afterEach, describe, expect, test } from "vitest"
import { HandoffEnd, Signal, signalsBytes } from "../src/node/handoff.js"

// A real worker thread speaking through the handoff channel: it answers every number it gets with the same
// number, `burst` times over, and polls for the next message (so both of its ways to take one are used).
const echoWorker = `
const { workerData, receiveMessageOnPort } = require("node:worker_threads")
const { port, signals } = workerData
const counters = new Int32Array(signals)
const send = (message) => { port.postMessage(message); Atomics.add(counters, ${Signal.toMain}, 1) }
const answer = ({ n, burst }) => { for (let i = 0; i < burst; i++) send(n) }
let seen = 0
port.on("message", (message) => { seen = Atomics.load(counters, ${Signal.toWorker}); answer(message) })
`

const workers: Worker[] = []
afterEach(async () => {
  await Promise.all(workers.splice(0).map((worker) => worker.terminate()))
})

const connect = () => {
  const { port1, port2 } = new MessageChannel()
  const signals = new SharedArrayBuffer(signalsBytes)
  const worker = new Worker(echoWorker, { eval: true, workerData: { port: port2, signals }, transferList: [port2] })
  workers.push(worker)
  const received: number[] = []
  const end = new HandoffEnd<number, { n: number; burst: number }>(
    port1,
    new Int32Array(signals),
    Signal.toWorker,
    Signal.toMain,
    (n) => received.push(n),
  )
  return { end, received }
}

const until = async (done: () => boolean) => {
  for (let tries = 0; tries < 2000 && !done(); tries++) await new Promise((resolve) => setTimeout(resolve, 1))
}

describe("handoff channel", () => {
  test("every message arrives once and in order, whether taken by polling or as an event", async () => {
    const { end, received } = connect()
    const expected: number[] = []
    for (let n = 0; n < 300; n++) {
      const burst = 1 + (n % 3)
      end.send({ n, burst })
      for (let i = 0; i < burst; i++) expected.push(n)
      // a third of the rounds poll for the answer, the rest leave it to the event loop
      if (n % 3 === 0) end.spin(5)
      if (n % 10 === 0) await until(() => received.length === expected.length)
    }
    await until(() => received.length === expected.length)
    expect(received).toEqual(expected)
  })

  test("a poll that gets nothing gives up at its bound and the message still arrives as an event", async () => {
    const { end, received } = connect()
    expect(end.spin(1)).toBe(false)
    end.send({ n: 7, burst: 1 })
    await until(() => received.length === 1)
    expect(received).toEqual([7])
  })

  test("a poll stops as soon as it is no longer wanted", () => {
    const { end } = connect()
    let looks = 0
    const started = performance.now()
    // nothing will come: `wanted` turning false ends this poll long before its bound of 10 s (so may the
    // thread losing its core, which also ends a poll)
    expect(end.spin(10_000, () => ++looks < 100)).toBe(false)
    expect(looks).toBeLessThanOrEqual(100)
    expect(performance.now() - started).toBeLessThan(5_000)
  })
})
