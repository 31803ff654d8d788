/**
 * The heap of a Worker's isolate in local workerd, read through its DevTools inspector (`Runtime.getHeapUsage`):
 * polled while a request runs, the most it used (garbage not yet collected included: the inspector answers only
 * between the isolate's turns, and workerd's inspector does not collect garbage on request) and its heap's size.
 */
import { WebSocket } from "undici"

export const isolateHeap = async (inspectorPort: number, targetId = "core:user:") => {
  const targets = (await (await fetch(`http://127.0.0.1:${inspectorPort}/json`)).json()) as {
    id: string
    webSocketDebuggerUrl: string
  }[]
  const target = targets.find((t) => t.id === targetId)
  if (!target) throw new Error(`no inspector target ${targetId}`)
  const socket = new WebSocket(target.webSocketDebuggerUrl)
  await new Promise((resolve, reject) => {
    socket.addEventListener("open", resolve)
    socket.addEventListener("error", () => reject(new Error("the inspector did not accept the connection")))
  })
  let id = 0
  const waiting = new Map<number, (result: { usedSize: number; totalSize: number }) => void>()
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(String(event.data)) as { id?: number; result?: { usedSize: number; totalSize: number } }
    if (message.id !== undefined && message.result) waiting.get(message.id)?.(message.result)
    if (message.id !== undefined) waiting.delete(message.id)
  })
  const usage = () =>
    new Promise<{ usedSize: number; totalSize: number }>((resolve) => {
      const at = ++id
      waiting.set(at, resolve)
      socket.send(JSON.stringify({ id: at, method: "Runtime.getHeapUsage" }))
    })

  /** runs `work`, polling the isolate's heap until it ends; MB (10^6 bytes) before, at the most, and the heap's size */
  const during = async <A>(work: () => Promise<A>) => {
    const before = await usage()
    let peakUsed = before.usedSize
    let peakTotal = before.totalSize
    let done = false
    const polling = (async () => {
      while (!done) {
        const now = await usage()
        peakUsed = Math.max(peakUsed, now.usedSize)
        peakTotal = Math.max(peakTotal, now.totalSize)
        await new Promise((resolve) => setTimeout(resolve, 2))
      }
    })()
    const value = await work()
    done = true
    await polling
    const after = await usage()
    const mb = (bytes: number) => bytes / 1e6
    return {
      value,
      beforeMB: mb(before.usedSize),
      peakUsedMB: mb(Math.max(peakUsed, after.usedSize)),
      heapMB: mb(Math.max(peakTotal, after.totalSize)),
    }
  }
  return { during, close: () => socket.close() }
}
