/**
 * `pnpm tsx bench/stdio-floor.ts`: the floor under the stdio MCP figure. The same fixture server is called 100
 * times in a row directly from the main thread, and 100 times by a worker thread that asks the main thread
 * for each call and polls for the answer, as a pool worker does, with no QuickJS, no executor and no telemetry:
 * the skeleton of the architecture issue 5 prescribes (guest code off the main thread, MCP connections on it).
 * Interleaved, 50 rounds after 10 unmeasured; prints the medians per call and their ratio.
 */
import { MessageChannel, Worker } from "node:worker_threads"
import { median } from "./execute/measure.js"
import { openDirectMcp } from "./execute/stdio-mcp.js"

const calls = 100
const direct = await openDirectMcp(1)
const relayed = await openDirectMcp(1)
const { port1, port2 } = new MessageChannel()
const signals = new Int32Array(new SharedArrayBuffer(4))

// the worker: post a call, poll the shared counter until the answer is there, take it, next
const worker = new Worker(
  `const { workerData, receiveMessageOnPort } = require("node:worker_threads")
  const { port, signals, calls } = workerData
  port.on("message", (message) => {
    if (message !== "go") return
    const started = performance.now()
    let seen = Atomics.load(signals, 0)
    for (let i = 0; i < calls; i++) {
      port.postMessage("call")
      while (Atomics.load(signals, 0) === seen) {}
      seen = Atomics.load(signals, 0)
      receiveMessageOnPort(port)
    }
    port.postMessage({ perCallUs: ((performance.now() - started) * 1000) / calls })
  })`,
  { eval: true, workerData: { port: port2, signals, calls }, transferList: [port2] },
)

let roundDone: ((perCallUs: number) => void) | undefined
port1.on("message", async (message: unknown) => {
  if (message !== "call") return roundDone?.((message as { perCallUs: number }).perCallUs)
  await relayed.round()
  port1.postMessage("result")
  Atomics.add(signals, 0, 1)
})
const relayedRound = () =>
  new Promise<number>((resolve) => {
    roundDone = resolve
    port1.postMessage("go")
  })

const directUs: number[] = []
const relayedUs: number[] = []
for (let round = 0; round < 60; round++) {
  const started = performance.now()
  for (let i = 0; i < calls; i++) await direct.round()
  const perCall = ((performance.now() - started) * 1000) / calls
  const throughWorker = await relayedRound()
  if (round < 10) continue
  directUs.push(perCall)
  relayedUs.push(throughWorker)
}
const [d, r] = [median(directUs), median(relayedUs)]
process.stdout.write(
  `stdio MCP call, direct from the main thread: ${d.toFixed(1)} µs; ` +
    `asked for by a worker thread (no guest, no executor): ${r.toFixed(1)} µs; ratio ${(r / d).toFixed(2)}x\n`,
)
await worker.terminate()
await Promise.all([direct.close(), relayed.close()])
