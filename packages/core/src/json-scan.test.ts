/** The count of keys and elements and the top-level id, read from a message's bytes in pieces of any size. */
import { describe, expect, it } from "vitest"
import { createJsonScan } from "./json-scan.js"

const scanned = (text: string, piece = 3) => {
  const scan = createJsonScan()
  const bytes = new TextEncoder().encode(text)
  for (let at = 0; at < bytes.length; at += piece) scan.push(bytes.subarray(at, at + piece))
  return { nodes: scan.nodes, id: scan.id() }
}

describe("createJsonScan", () => {
  it("finds the id wherever it stands, a number or a string, in pieces of any size", () => {
    for (const piece of [1, 2, 7, 1000]) {
      expect(scanned('{"jsonrpc":"2.0","id":42,"result":{"a":1}}', piece).id).toBe(42)
      expect(scanned('{"result":{"id":7,"b":[1,2]},"jsonrpc":"2.0","id":"req-\\"9\\""}', piece).id).toBe('req-"9"')
      expect(scanned('{ "id" : 3 }', piece).id).toBe(3)
    }
  })

  it("does not take an id nested in the result, and has none when the message has none", () => {
    expect(scanned('{"jsonrpc":"2.0","method":"x","params":{"id":5}}').id).toBeUndefined()
    expect(scanned('{"result":{"id":5}}').id).toBeUndefined()
  })

  it("counts each member and element once, not what strings hold", () => {
    const keys = Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`k${i}`, i]))
    expect(scanned(JSON.stringify({ id: 1, result: keys }), 64).nodes).toBeGreaterThanOrEqual(500)
    expect(scanned(JSON.stringify({ id: 1, result: keys }), 64).nodes).toBeLessThan(510)
    const text = JSON.stringify({ id: 1, result: { text: "{[,]},".repeat(1000) } })
    expect(scanned(text).nodes).toBeLessThan(5)
  })

  it("is ready for the next message after reset", () => {
    const scan = createJsonScan()
    scan.push(new TextEncoder().encode('{"id":1,"result":[1,2,3]}'))
    scan.reset()
    scan.push(new TextEncoder().encode('{"id":2,"result":{}}'))
    expect(scan.id()).toBe(2)
    expect(scan.nodes).toBeLessThan(4)
  })
})
