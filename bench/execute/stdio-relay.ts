/**
 * The design's floor under a stdio MCP call made by guest code: a worker thread asks the main thread for each call
 * and polls a shared counter for the answer, as a pool worker does, with no QuickJS, no executor and no telemetry.
 * The main thread calls the fixture server over one kept-open SDK connection. `round()` resolves to µs per call.
 */
import { MessageChannel, Worker } from "node:worker_threads"
import { openDirectMcp } from "./stdio-mcp.js"

const workerSource = `const { workerData, receiveMessageOnPort } = require("node:worker_threads")
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
})`

export const openRelayedMcp = async (calls: number) => {
  const upstream = await openDirectMcp(1)
  const { port1, port2 } = new MessageChannel()
  const signals = new Int32Array(new SharedArrayBuffer(4))
  const worker = new Worker(workerSource, {
    eval: true,
    workerData: { port: port2, signals, calls },
    transferList: [port2],
  })
  let roundDone: ((perCallUs: number) => void) | undefined
  port1.on("message", async (message: unknown) => {
    if (message !== "call") return roundDone?.((message as { perCallUs: number }).perCallUs)
    await upstream.round()
    port1.postMessage("result")
    Atomics.add(signals, 0, 1)
  })
  return {
    round: () =>
      new Promise<number>((resolve) => {
        roundDone = resolve
        port1.postMessage("go")
      }),
    close: async () => {
      await worker.terminate()
      await upstream.close()
    },
  }
}
