/** The bounded line reader on its own: what a well-behaved server sends passes, each bound trips by its name. */
import { describe, expect, it } from "vitest"
import { deserializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js"
import { createStdoutReader, DEFAULT_STDOUT_LIMITS } from "../src/stdout-reader.js"

const bytes = (text: string) => new TextEncoder().encode(text)
const ping = (id: number) => JSON.stringify({ jsonrpc: "2.0", id, method: "ping" })

const reader = (limits = {}) => {
  const got: unknown[] = []
  let clock = 0
  const r = createStdoutReader(
    (m) => got.push(m),
    deserializeMessage,
    { ...DEFAULT_STDOUT_LIMITS, ...limits },
    () => clock,
  )
  return { got, push: (text: string) => r.push(bytes(text)), tick: (ms: number) => (clock += ms) }
}

describe("createStdoutReader", () => {
  it("a message split across chunks, CRLF endings and a stray banner line all pass", () => {
    const r = reader()
    expect(r.push("Server started on stdio\n" + ping(1).slice(0, 10))).toBeUndefined()
    expect(r.push(ping(1).slice(10) + "\r\n" + ping(2) + "\n")).toBeUndefined()
    expect(r.got).toEqual([
      { jsonrpc: "2.0", id: 1, method: "ping" },
      { jsonrpc: "2.0", id: 2, method: "ping" },
    ])
  })

  it("unparseable lines are forgiven up to the budget, and a valid message resets it", () => {
    const r = reader({ maxUnparseableLines: 3 })
    expect(r.push("a\nb\nc\n" + ping(1) + "\na\nb\nc\n")).toBeUndefined()
    expect(r.push("d\n")).toMatchObject({ bound: "unparseable_lines", message: expect.stringContaining('"d"') })
  })

  it("a line longer than the bound trips before its newline arrives", () => {
    const r = reader({ maxLineBytes: 100 })
    expect(r.push("x".repeat(60))).toBeUndefined()
    expect(r.push("x".repeat(60))).toMatchObject({ bound: "line_length" })
  })

  it("bytes and lines are counted per window; a new window starts afresh", () => {
    const r = reader({ maxBytesPerWindow: 1_000, maxLinesPerWindow: 3, rateWindowMs: 1_000 })
    expect(r.push(`${ping(1)}\n${ping(2)}\n`)).toBeUndefined()
    r.tick(1_000)
    expect(r.push(`${ping(3)}\n${ping(4)}\n${ping(5)}\n`)).toBeUndefined()
    expect(r.push(`${ping(6)}\n`)).toMatchObject({ bound: "line_rate" })
    const big = reader({ maxBytesPerWindow: 100 })
    expect(big.push("x".repeat(101))).toMatchObject({ bound: "byte_rate" })
  })
})
