/**
 * The naps of waits between two looks at the store: each ends after its time, when its signal aborts, or when it is
 * woken; a nap on an approval also ends when that approval's resume starts on this server (`wake`).
 */
export type Naps = ReturnType<typeof createNaps>

export const createNaps = () => {
  /** the naps on each approval, by its id */
  const napping = new Map<string, Set<() => void>>()

  return {
    /** A nap: `done` resolves however it ends, and its timer goes with it. */
    sleep(ms: number, signal?: AbortSignal, approvalId?: string) {
      const naps = approvalId === undefined ? undefined : (napping.get(approvalId) ?? new Set<() => void>())
      let wake = () => {}
      const done = new Promise<void>((resolve) => {
        wake = () => {
          clearTimeout(timer)
          signal?.removeEventListener("abort", wake)
          naps?.delete(wake)
          if (naps?.size === 0 && napping.get(approvalId!) === naps) napping.delete(approvalId!)
          resolve()
        }
        const timer = setTimeout(wake, ms)
      })
      signal?.addEventListener("abort", wake, { once: true })
      if (naps) napping.set(approvalId!, naps.add(wake))
      if (signal?.aborted) wake()
      return { done, wake }
    },

    /** Ends every nap on the approval. */
    wake(approvalId: string) {
      for (const wake of napping.get(approvalId) ?? []) wake()
    },
  }
}
