/**
 * A baseline that runs each request's script as the server must and does nothing else: a bare Node HTTP server
 * whose `{"code": …}` runs in runtime-quickjs's worker pool (a sandbox no other run touched, on another thread,
 * with the default limits), answered as JSON. No key, no catalog, no executor, no record, no router. What
 * `switchboard serve` costs beyond it is the server's own cost per execute.
 * Run by server-cost.ts in a process of its own (`node --import tsx bench/execute/sandbox-server.ts`); it prints
 * "listening on <url>" as the other servers do.
 */
import { createServer } from "node:http"
import { setFlagsFromString } from "node:v8"
import { defaultLimits } from "@switchboard/core"
import { createWorkerPoolRuntime } from "@switchboard/runtime-quickjs/node"

// the server's own V8 setting (apps/server cli.ts), so both warm up alike
setFlagsFromString("--interrupt-budget=4096")
const runtime = await createWorkerPoolRuntime({
  memoryCapBytes: Math.max(64 << 20, 2 * defaultLimits.memoryBytes),
  logLimits: defaultLimits,
})
// an orderly exit, so that `--cpu-prof` writes its profile
process.once("SIGTERM", () => void runtime.close().then(() => process.exit(0)))
const refuse = async () => ({ ok: false as const, error: { code: "tool_not_found", message: "no tools here" } })

createServer((request, response) => {
  let body = ""
  request.setEncoding("utf8")
  request.on("data", (chunk: string) => (body += chunk))
  request.on("end", async () => {
    const controller = new AbortController()
    // a client that hangs up stops its run; an abort after a finished answer would cost more than the run
    response.once("close", () => response.writableFinished || controller.abort())
    let status = 200
    let text: string
    try {
      const outcome = await runtime.run(JSON.parse(body).code, {
        invoke: refuse,
        limits: defaultLimits,
        signal: controller.signal,
      })
      text = JSON.stringify(outcome.ok ? { ok: true, result: outcome.value } : { ok: false, error: outcome.error })
    } catch (cause) {
      // a bad body or a failed run is answered (the load client counts it), not left to end the process unseen
      status = 500
      text = JSON.stringify({ ok: false, error: String(cause) })
    }
    response.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) })
    response.end(text)
  })
}).listen(0, "127.0.0.1", function (this: import("node:net").Server) {
  const address = this.address() as import("node:net").AddressInfo
  console.log(`listening on http://127.0.0.1:${address.port}`)
})
