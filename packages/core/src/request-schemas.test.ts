import { expect, it } from "vitest"
import { describeRequest, executeRequest, parseRequest, wholeNumber } from "./request-schemas.js"

const limit = wholeNumber("limit", { min: 1, max: 1_000 })

it.each([
  ["a query string", "25", 25],
  ["a JSON number", 25, 25],
  ["the bounds", "1000", 1_000],
])("a whole number from %s is accepted", (_name, raw, expected) => {
  expect(parseRequest(limit, raw)).toEqual({ ok: true, value: expected })
})

it.each([
  ["1e20"],
  ["1e3"],
  ["0"],
  ["1001"],
  ["-1"],
  ["1.5"],
  [" 5"],
  ["0x10"],
  [""],
  ["99999999999999999999"],
  [1e20],
  [1.5],
  [Number.NaN],
  [true],
  [null],
])("%j is refused with the parameter, its range and what was given", (raw) => {
  const parsed = parseRequest(limit, raw)
  expect(parsed.ok).toBe(false)
  // a query string's digits are named as the number they are: `?limit=0` says (got 0)
  const given = typeof raw === "string" && /^\d{1,16}$/.test(raw) ? Number(raw) : raw
  if (!parsed.ok)
    expect(parsed.error.message).toBe(`limit must be a whole number from 1 to 1000 (got ${JSON.stringify(given)})`)
})

it.each([
  [{}, '"code" must be a string holding the script'],
  [[1], 'the body must be a JSON object: {"code": "..."}'],
  [{ code: "x", timeoutMs: -5 }, '"timeoutMs" must be a positive whole number of milliseconds'],
  [{ code: "x", limits: { speed: 5 } }, /^unknown limit "speed"; limits are: timeoutMs, memoryBytes/],
  [{ code: "x", limits: { maxToolCalls: 1.5 } }, 'limit "maxToolCalls" must be a positive whole number'],
  [{ code: "x", limits: { stackBytes: 1 } }, /^limit "stackBytes" must be at least 16384/],
  [{ code: "x", limits: [] }, /^"limits" must be an object with any of: timeoutMs/],
])("execute %j is refused: %s", (body, message) => {
  const parsed = parseRequest(executeRequest, body)
  expect(parsed.ok).toBe(false)
  if (!parsed.ok) expect(parsed.error.message).toMatch(message)
})

it("an execute limit above any server's is capped later, not refused", () => {
  expect(parseRequest(executeRequest, { code: "x", limits: { maxResultBytes: 1e20 }, other: 1 })).toEqual({
    ok: true,
    value: { code: "x", limits: { maxResultBytes: 1e20 } },
  })
})

it("a describe request takes paths, or a query with a limit, or neither", () => {
  expect(parseRequest(describeRequest, {})).toEqual({ ok: true, value: {} })
  expect(parseRequest(describeRequest, { query: "sum", limit: "5" })).toEqual({
    ok: true,
    value: { query: "sum", limit: 5 },
  })
  for (const paths of ["x", [], [1], Array(101).fill("a.b")])
    expect(parseRequest(describeRequest, { paths })).toMatchObject({
      ok: false,
      error: { message: '"paths" must be an array of 1 to 100 tool paths' },
    })
})
