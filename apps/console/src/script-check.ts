/**
 * Checks the playground's script with TypeScript, in a Web Worker (./check-worker.ts) started at the first check:
 * the compiler (megabytes) is fetched only by the playground, and never blocks the page while it checks.
 */
import type { CheckReply, CheckRequest, ScriptDiagnostic } from "./script-check-protocol.js"

let worker: Worker | undefined
let lastId = 0
const waiting = new Map<number, (diagnostics: ScriptDiagnostic[]) => void>()

const start = () => {
  const started = new Worker(new URL("./check-worker.ts", import.meta.url), { type: "module", name: "typescript" })
  started.onmessage = (event: MessageEvent<CheckReply>) => {
    waiting.get(event.data.id)?.(event.data.diagnostics)
    waiting.delete(event.data.id)
  }
  // a checker that failed leaves the editor without diagnostics, never without its text: the next check starts one
  started.onerror = (event) => {
    console.warn(`the type checker stopped: ${event.message}`)
    for (const answer of waiting.values()) answer([])
    waiting.clear()
    worker = undefined
  }
  return started
}

export const checkScript = (declarations: string, code: string): Promise<ScriptDiagnostic[]> =>
  new Promise((resolve) => {
    const id = ++lastId
    waiting.set(id, resolve)
    worker ??= start()
    worker.postMessage({ id, declarations, code } satisfies CheckRequest)
  })
