import { expect, it } from "vitest"
import { describeRetention, parseRetention } from "./retention.js"

it("reads an age in s, m, h, d or w and a whole count; neither given keeps everything", () => {
  expect(parseRetention({ retain: "7d" })).toEqual({ ok: true, policy: { maxAgeMs: 7 * 86_400_000 } })
  expect(parseRetention({ retain: " 90m ", retainExecutions: "100000" })).toEqual({
    ok: true,
    policy: { maxAgeMs: 90 * 60_000, maxExecutions: 100_000 },
  })
  expect(parseRetention({ retain: "2w" })).toMatchObject({ policy: { maxAgeMs: 14 * 86_400_000 } })
  expect(parseRetention({ retainExecutions: "1" })).toEqual({ ok: true, policy: { maxExecutions: 1 } })
  expect(parseRetention({})).toEqual({ ok: true, policy: undefined })
  expect(parseRetention({ retain: "", retainExecutions: " " })).toEqual({ ok: true, policy: undefined })
})

it("refuses an age without a unit or of zero, and a count that is not a whole number", () => {
  for (const retain of ["7", "0d", "7 days", "-1h", "1.5h", "99999999999999999w"])
    expect(parseRetention({ retain })).toMatchObject({
      ok: false,
      message: expect.stringContaining("--retain must be"),
    })
  for (const retainExecutions of ["1e5", "-1", "10k", "1.5", "99999999999999999999"])
    expect(parseRetention({ retainExecutions })).toMatchObject({
      ok: false,
      message: expect.stringContaining("--retain-executions must be"),
    })
  // 0 would keep none: every execution not held or paused deleted at the next prune
  expect(parseRetention({ retainExecutions: "0" })).toEqual({
    ok: false,
    message: '--retain-executions must be at least 1 (got "0"); without it every execution is kept',
  })
  expect(parseRetention({ retainExecutions: "00" }, { retain: "R", retainExecutions: "N" })).toMatchObject({
    ok: false,
    message: expect.stringMatching(/^N must be at least 1/),
  })
})

it("says the policy in words", () => {
  expect(describeRetention(undefined)).toBe("every execution is kept")
  expect(describeRetention({ maxAgeMs: 36 * 3_600_000 })).toBe(
    "executions are kept while started in the last 36h (one whose output a model was told to read: an hour at least)",
  )
})
