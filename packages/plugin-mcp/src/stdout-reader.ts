/**
 * Splits a stdio server's stdout into JSON-RPC messages, within bounds (ARCHITECTURE.md: safety: no single source may stall the
 * main thread). The SDK's ReadBuffer concatenates every chunk onto the pending bytes and searches them all again
 * (quadratic on a long line), and reports each line that does not parse as an error: `yes` as a server makes
 * tens of thousands of exceptions per 64 KiB. Here a line's pieces are joined once, when its newline arrives, and
 * the first bound crossed ends the reading with a `StdoutOverflow` that names it.
 */
import { Data } from "effect"
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js"
import { createJsonScan } from "@switchboard/core"

export interface StdoutLimits {
  /** the longest line (one message); the SDK's own client allows 10 MiB, so a server that works with it works here */
  maxLineBytes: number
  /** lines in a row that are not JSON-RPC (the spec says stdout carries nothing else; a stray banner is forgiven) */
  maxUnparseableLines: number
  /** the window the two rates are counted over: long enough that a burst (one large tools/list) passes */
  rateWindowMs: number
  maxBytesPerWindow: number
  /**
   * lines per window: a flood of small valid messages costs parsing, not bytes. The SDK's client handles about
   * 10,000 small messages a second on one core; the bound must trip well below that, or a flood would never reach it.
   */
  maxLinesPerWindow: number
}

const MiB = 1024 * 1024

export const DEFAULT_STDOUT_LIMITS: StdoutLimits = {
  maxLineBytes: 10 * MiB,
  maxUnparseableLines: 100,
  rateWindowMs: 10_000,
  maxBytesPerWindow: 160 * MiB,
  maxLinesPerWindow: 20_000,
}

/**
 * A bound on the keys and elements of the messages that answer some requests (a tools/call's), counted on the
 * line before it is parsed: parsing and every later pass over a value of hundreds of thousands of keys would hold
 * the main thread for a second and more. Such a message is never parsed; the caller gets `refuse`'s in its place.
 */
export interface ResultBound {
  maxNodes: number
  /** the message answering this request may be refused */
  applies(id: string | number): boolean
  /** what is handed on in place of a message past the bound */
  refuse(id: string | number, nodes: number): JSONRPCMessage
}

export type StdoutBound = "line_length" | "unparseable_lines" | "byte_rate" | "line_rate"

/** The server sent more than its bounds allow; `message` names the bound and is fit for a user. */
export class StdoutOverflow extends Data.TaggedError("StdoutOverflow")<{ bound: StdoutBound; message: string }> {}

const mib = (bytes: number) => `${Math.round(bytes / MiB)} MiB`
const NEWLINE = 10
const decoder = new TextDecoder()

const join = (pieces: Uint8Array[], length: number): Uint8Array => {
  if (pieces.length === 1) return pieces[0]!
  const line = new Uint8Array(length)
  let at = 0
  for (const piece of pieces) {
    line.set(piece, at)
    at += piece.length
  }
  return line
}

/** `push` hands each complete message to `onMessage`; it returns the bound crossed, after which it must not be called again. */
export const createStdoutReader = (
  onMessage: (message: JSONRPCMessage) => void,
  /** one line to a message, throwing when it is not one (the SDK's `deserializeMessage`, which its caller loads) */
  deserializeMessage: (line: string) => JSONRPCMessage,
  limits: StdoutLimits = DEFAULT_STDOUT_LIMITS,
  now = Date.now,
  resultBound?: ResultBound,
) => {
  let pending: Uint8Array[] = []
  let pendingBytes = 0
  let unparseable = 0
  let lastUnparseable = ""
  let windowStart = now()
  let windowBytes = 0
  let windowLines = 0
  const seconds = limits.rateWindowMs / 1000
  const scan = resultBound ? createJsonScan() : undefined

  /** a message past `resultBound`, answered without being parsed; false when it is read as any other */
  const refused = (): boolean => {
    if (!scan || !resultBound || scan.nodes <= resultBound.maxNodes) return false
    const id = scan.id()
    if (id === undefined || !resultBound.applies(id)) return false
    onMessage(resultBound.refuse(id, scan.nodes))
    return true
  }

  const line = (bytes: Uint8Array): StdoutOverflow | undefined => {
    if (++windowLines > limits.maxLinesPerWindow) {
      return new StdoutOverflow({
        bound: "line_rate",
        message: `the server wrote more than ${limits.maxLinesPerWindow} messages in ${seconds} s to stdout`,
      })
    }
    if (refused()) return undefined
    const text = decoder.decode(bytes)
    let message: JSONRPCMessage
    try {
      message = deserializeMessage(text.endsWith("\r") ? text.slice(0, -1) : text)
    } catch {
      lastUnparseable = text
      if (++unparseable <= limits.maxUnparseableLines) return undefined
      return new StdoutOverflow({
        bound: "unparseable_lines",
        message: `the server wrote ${unparseable} lines that are not JSON-RPC in a row to stdout (the last: ${JSON.stringify(lastUnparseable.slice(0, 80))})`,
      })
    }
    unparseable = 0
    onMessage(message)
    return undefined
  }

  const push = (chunk: Uint8Array): StdoutOverflow | undefined => {
    const at = now()
    if (at - windowStart >= limits.rateWindowMs) {
      windowStart = at
      windowBytes = 0
      windowLines = 0
    }
    windowBytes += chunk.length
    if (windowBytes > limits.maxBytesPerWindow) {
      return new StdoutOverflow({
        bound: "byte_rate",
        message: `the server wrote more than ${mib(limits.maxBytesPerWindow)} in ${seconds} s to stdout`,
      })
    }
    let start = 0
    for (;;) {
      const end = chunk.indexOf(NEWLINE, start)
      const piece = chunk.subarray(start, end === -1 ? chunk.length : end)
      if (pendingBytes + piece.length > limits.maxLineBytes) {
        return new StdoutOverflow({
          bound: "line_length",
          message: `the server wrote a line longer than ${mib(limits.maxLineBytes)} to stdout`,
        })
      }
      scan?.push(piece)
      if (end === -1) {
        if (piece.length > 0) pending.push(piece)
        pendingBytes += piece.length
        return undefined
      }
      pending.push(piece)
      const whole = join(pending, pendingBytes + piece.length)
      pending = []
      pendingBytes = 0
      const overflow = line(whole)
      scan?.reset()
      if (overflow) return overflow
      start = end + 1
    }
  }

  return { push }
}
