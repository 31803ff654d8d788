import { expect, it } from "vitest"
import { wholeNumber } from "./whole-number.js"

const range = { min: 1, max: 1_000 }

it.each([
  ["absent", undefined, { ok: true, value: undefined }],
  ["a query string", "25", { ok: true, value: 25 }],
  ["a JSON number", 25, { ok: true, value: 25 }],
  ["the bounds", "1000", { ok: true, value: 1_000 }],
])("%s is accepted", (_name, raw, expected) => {
  expect(wholeNumber(raw, "limit", range)).toEqual(expected)
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
  [1.5],
  [Number.NaN],
  [true],
  [null],
])("%j is refused with the parameter and its range", (raw) => {
  expect(wholeNumber(raw, "limit", range)).toEqual({
    ok: false,
    message: `limit must be a whole number from 1 to 1000 (got ${JSON.stringify(raw)})`,
  })
})
