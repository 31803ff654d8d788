import { expect, it } from "vitest"
import { timeOrderedId } from "./ids.js"

it("ids are distinct UUID v7 strings that sort in the order they were made", () => {
  const ids = Array.from({ length: 2_000 }, timeOrderedId)
  for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
  expect(new Set(ids).size).toBe(ids.length)
  expect([...ids].sort()).toEqual(ids)
})

it("more ids in one millisecond than the counter holds still come out distinct and in order", () => {
  const ids = Array.from({ length: 10_000 }, timeOrderedId)
  expect(new Set(ids).size).toBe(ids.length)
  expect([...ids].sort()).toEqual(ids)
})
