import { expect, it } from "vitest"
import { approvalsFromFlags, parseApprovalTimeout } from "./approval-flags.js"

it("reads a timeout in s, m, h or d, more than 0", () => {
  expect(parseApprovalTimeout("90s")).toBe(90_000)
  expect(parseApprovalTimeout("30m")).toBe(1_800_000)
  expect(parseApprovalTimeout("1h")).toBe(3_600_000)
  expect(parseApprovalTimeout("2d")).toBe(172_800_000)
  for (const bad of ["0h", "1", "1 h", "1.5h", "1w", "1234567d", ""]) expect(parseApprovalTimeout(bad), bad).toBeNull()
})

it("the flags win over the config file's approvals; --no-approvals turns them off whatever the file says", () => {
  expect(approvalsFromFlags({})).toEqual({ ok: true, options: {} })
  expect(approvalsFromFlags({ "approval-timeout": "10m" }, { timeout: "2h" })).toEqual({
    ok: true,
    options: { approvalTtlMs: 600_000 },
  })
  expect(approvalsFromFlags({}, { enabled: true, timeout: "2h" })).toEqual({
    ok: true,
    options: { approvalTtlMs: 7_200_000 },
  })
  const off = approvalsFromFlags({ "no-approvals": true }, { enabled: true })
  expect(off).toMatchObject({
    ok: true,
    options: { approvals: false },
    notice: expect.stringContaining("--no-approvals"),
  })
  expect(approvalsFromFlags({}, { enabled: false })).toMatchObject({
    ok: true,
    options: { approvals: false },
    notice: expect.stringContaining('"enabled": false'),
  })
  expect(approvalsFromFlags({ "approval-timeout": "an hour" })).toEqual({
    ok: false,
    message: '--approval-timeout must be a duration such as 1h, 30m, 90s or 2d (got "an hour")',
  })
})
