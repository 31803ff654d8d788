/**
 * `pnpm tsx bench/stdio-floor.ts`: the floor under the stdio MCP figure. The same fixture server is called 100
 * times in a row directly from the main thread, and 100 times by a worker thread that asks the main thread
 * for each call and polls for the answer, as a pool worker does, with no QuickJS, no executor and no telemetry
 * (`execute/stdio-relay.ts`): the skeleton of the architecture (guest code off the main thread, MCP connections on
 * it). Interleaved, 50 rounds after 10 unmeasured; prints the medians per call and their ratio.
 */
import { median } from "./execute/measure.js"
import { openDirectMcp } from "./execute/stdio-mcp.js"
import { openRelayedMcp } from "./execute/stdio-relay.js"

const calls = 100
const direct = await openDirectMcp(1)
const relayed = await openRelayedMcp(calls)

const directUs: number[] = []
const relayedUs: number[] = []
for (let round = 0; round < 60; round++) {
  const started = performance.now()
  for (let i = 0; i < calls; i++) await direct.round()
  const perCall = ((performance.now() - started) * 1000) / calls
  const throughWorker = await relayed.round()
  if (round < 10) continue
  directUs.push(perCall)
  relayedUs.push(throughWorker)
}
const [d, r] = [median(directUs), median(relayedUs)]
process.stdout.write(
  `stdio MCP call, direct from the main thread: ${d.toFixed(1)} µs; ` +
    `asked for by a worker thread (no guest, no executor): ${r.toFixed(1)} µs; ratio ${(r / d).toFixed(2)}x\n`,
)
await Promise.all([direct.close(), relayed.close()])
