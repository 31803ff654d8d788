/**
 * Where the logger's lines go by default: a file descriptor (stderr), written in batches. One write to stderr is a
 * system call on the main thread that costs more than pino takes to make the line, so a line per request written
 * at once slows a trivial execute measurably (bench/host-ab.ts, HOST_AB_LOG). So a line is written
 * at once only when none was in the last `holdMs` (20 ms): a quiet server's lines go out as they come. Lines that
 * follow closely are gathered and written together when those 20 ms end, at once when `maxBytes` (64 KiB) wait,
 * and when the process exits (the `exit` event, which a thrown error that ends the process reaches too). Only a
 * SIGKILL or a crash of Node itself loses lines, those of the last 20 ms. pino's own asynchronous destination
 * (sonic-boom, `sync: false`) hands every write to libuv's thread pool, which on few cores costs more than writing.
 */
import { pino } from "pino"
import type { DestinationStream } from "pino"

/** one batcher per file descriptor, whatever number of loggers write to it (a host per test made one each) */
const byFd = new Map<number, { flush: () => void; destination: DestinationStream }>()
let exitHooked = false

/** The batcher of `fd`: made by the first call, whose options it keeps; every later call gets the same one. */
export const batchedDestination = (fd: number, options: { holdMs?: number; maxBytes?: number } = {}) => {
  let made = byFd.get(fd)
  if (!made) byFd.set(fd, (made = makeBatcher(fd, options)))
  if (!exitHooked) {
    exitHooked = true
    process.once("exit", () => {
      for (const { flush } of byFd.values()) flush()
    })
  }
  return made.destination
}

const makeBatcher = (fd: number, { holdMs = 20, maxBytes = 64 * 1024 }) => {
  // sonic-boom, synchronous: it writes the whole string, and retries a pipe that is full (EAGAIN)
  const out = pino.destination({ fd, sync: true })
  let pending = ""
  /** set while a write was made in the last `holdMs`: lines wait for it to fire */
  let holding: ReturnType<typeof setTimeout> | undefined
  const flush = () => {
    if (pending === "") return
    const lines = pending
    pending = ""
    out.write(lines)
  }
  // unref'd: a process with nothing else to do may exit, and its exit writes what waits
  const open = () => (holding = setTimeout(windowEnded, holdMs).unref())
  const windowEnded = () => {
    holding = undefined
    if (pending === "") return
    flush()
    open()
  }
  const destination: DestinationStream = {
    write(line: string) {
      if (holding === undefined) {
        out.write(line)
        open()
        return
      }
      pending += line
      if (pending.length >= maxBytes) flush()
    },
  }
  return { flush, destination }
}
