/**
 * A copy of the log of the run a worker is on, in memory the pool shares with it. The worker writes each line
 * as the script logs it; when the pool has to kill the worker (a builtin running past the deadline, a thread
 * out of memory), it reads the lines back, so a run that is stopped by force still returns what it logged.
 *
 * Layout: a header of Int32 words (the run, how many lines and bytes are published, lines dropped), the bytes
 * dropped as a BigInt64, then the lines, each a level byte, a UTF-8 length (Uint32, little-endian) and the
 * UTF-8 text. Only the worker writes, and only by appending within a run; it publishes a line by storing the
 * counts after the bytes, so the pool reads a whole prefix even while the worker is still running.
 */
import type { LogEntry, RunLimits } from "@switchboard/core"
import { createLogBuffer } from "../log-buffer.js"
import type { LogSink } from "../log-buffer.js"
import { logLevels } from "../prelude/protocol.js"

const Word = { runId: 0, lines: 1, bytes: 2, droppedLines: 3 } as const
const droppedBytesAt = 16
const linesAt = 24
const lineHeaderBytes = 5

/** The mirror that holds every line a run within `limits` can keep. */
export const logMirrorBytes = (limits: Pick<RunLimits, "maxLogLines" | "maxLogBytes">): number =>
  linesAt + limits.maxLogBytes + lineHeaderBytes * limits.maxLogLines

/** The worker's end: a LogSink for each run it starts. */
export class LogMirrorWriter implements LogSink {
  private readonly words: Int32Array
  private readonly droppedBytes: BigInt64Array
  private readonly bytes: Buffer
  private lines = 0
  private used = linesAt
  private droppedLines = 0
  private droppedTotal = 0

  constructor(shared: SharedArrayBuffer) {
    this.words = new Int32Array(shared, 0, 4)
    this.droppedBytes = new BigInt64Array(shared, droppedBytesAt, 1)
    this.bytes = Buffer.from(shared)
  }

  /** Starts the copy of a new run's log; what the last run logged is forgotten. */
  begin(runId: number): void {
    this.lines = this.droppedLines = this.droppedTotal = 0
    this.used = linesAt
    Atomics.store(this.words, Word.lines, 0)
    Atomics.store(this.words, Word.bytes, linesAt)
    Atomics.store(this.words, Word.droppedLines, 0)
    Atomics.store(this.droppedBytes, 0, 0n)
    Atomics.store(this.words, Word.runId, runId)
  }

  kept(level: LogEntry["level"], message: string, bytes: number): void {
    // sized for the server's limits (logMirrorBytes), so a line fits unless a run's limits were raised past
    // them; after one that did not, none is kept, as the log keeps no gaps
    if (this.droppedLines > 0 || this.used + lineHeaderBytes + bytes > this.bytes.length) return this.dropped(bytes)
    const at = this.used
    this.bytes[at] = logLevels.indexOf(level)
    const written = this.bytes.write(message, at + lineHeaderBytes, bytes, "utf8")
    this.bytes.writeUInt32LE(written, at + 1)
    this.used = at + lineHeaderBytes + written
    Atomics.store(this.words, Word.bytes, this.used)
    Atomics.store(this.words, Word.lines, ++this.lines)
  }

  dropped(bytes: number): void {
    this.droppedTotal += bytes
    Atomics.store(this.droppedBytes, 0, BigInt(this.droppedTotal))
    Atomics.store(this.words, Word.droppedLines, ++this.droppedLines)
  }
}

/**
 * The pool's end: the log of run `runId` as far as the worker got, with the same marker for dropped lines a
 * finished run has; undefined when the mirror holds another run's log.
 */
export const readLogMirror = (
  shared: SharedArrayBuffer,
  runId: number,
  limits: Pick<RunLimits, "maxLogLines" | "maxLogBytes">,
): LogEntry[] | undefined => {
  const words = new Int32Array(shared, 0, 4)
  if (Atomics.load(words, Word.runId) !== runId) return undefined
  const lines = Atomics.load(words, Word.lines)
  const droppedLines = Atomics.load(words, Word.droppedLines)
  const droppedBytes = Number(Atomics.load(new BigInt64Array(shared, droppedBytesAt, 1), 0))
  const bytes = Buffer.from(shared)
  // replayed into a buffer of the run's limits, so the entries and the marker read as a finished run's do
  const log = createLogBuffer(limits)
  let at = linesAt
  for (let line = 0; line < lines; line++) {
    const length = bytes.readUInt32LE(at + 1)
    log.push(
      logLevels[bytes[at]!] ?? "log",
      bytes.toString("utf8", at + lineHeaderBytes, at + lineHeaderBytes + length),
    )
    at += lineHeaderBytes + length
  }
  if (droppedLines > 0) log.drop(droppedBytes, droppedLines)
  return log.entries()
}
