/**
 * Downloads of stored output in progress, counted per key: a key could otherwise open many downloads of its own
 * large output and read none of them. A download streams its text a part at a time (./output-stream.ts), so one
 * that is not read holds about one part; this bounds how many one key holds open. A server without keys counts
 * every caller as one.
 */
import type * as Auth from "@switchboard/core/auth"

/** downloads one key may have in progress at once when the host names no other number */
export const DEFAULT_MAX_DOWNLOADS_PER_KEY = 8

export const downloadSlots = (max: number) => {
  const open = new Map<string | null, number>()
  return {
    max,
    /** a slot for the caller's key, and how to give it back (once is enough; again does nothing); none at `max` */
    take(caller: Auth.Caller): (() => void) | undefined {
      const key = caller.keyId
      const taken = open.get(key) ?? 0
      if (taken >= max) return undefined
      open.set(key, taken + 1)
      let given = false
      return () => {
        if (given) return
        given = true
        const left = (open.get(key) ?? 1) - 1
        if (left === 0) open.delete(key)
        else open.set(key, left)
      }
    },
    /** what a caller past `max` is told */
    refusal(caller: Auth.Caller): string {
      const who =
        caller.keyId === null
          ? `${max} downloads of stored output are already in progress, the most this server (it takes no keys) allows at once`
          : `key ${caller.keyId} already has ${max} downloads of stored output in progress, the most one key may have at once`
      return `${who}; try again when one has finished, or read the output a page at a time (offset, limit) or search it (grep)`
    },
  }
}

export type DownloadSlots = ReturnType<typeof downloadSlots>
