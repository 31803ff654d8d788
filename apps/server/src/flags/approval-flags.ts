/**
 * `--no-approvals` and `--approval-timeout` (serve, demo, mcp, run), and the config file's `approvals` under them:
 * whether a call that needs a person's decision pauses, and how long a paused call waits for one before it counts
 * as declined (core's executor and approvals service).
 */
import type { HostOptions } from "../compose.js"

export const APPROVAL_TIMEOUT_FORM = "a duration such as 1h, 30m, 90s or 2d"

/** also the JSON Schema's `pattern`, so that an editor flags a wrong one: more than 0, at most 6 digits */
export const APPROVAL_TIMEOUT_PATTERN = /^0*([1-9]\d{0,5})(s|m|h|d)$/

const UNIT_MS = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const

/** milliseconds, or null when the text is not a positive duration */
export const parseApprovalTimeout = (text: string): number | null => {
  const match = APPROVAL_TIMEOUT_PATTERN.exec(text.trim())
  return match ? Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS] : null
}

export interface ApprovalFlagValues {
  "no-approvals"?: boolean
  "approval-timeout"?: string
}

/** The config file's `approvals` (config-schema.ts), already checked. */
export interface FileApprovals {
  enabled?: boolean
  timeout?: string
}

export type ApprovalSettings = Pick<HostOptions, "approvals" | "approvalTtlMs">

/**
 * The host options the flags set, over the file's `approvals`: `--approval-timeout` wins over `timeout`;
 * `--no-approvals` turns approvals off whatever the file says (a flag can only turn them off: a file's
 * `"enabled": false` is undone by editing the file). `notice`: a line for the operator when approvals are off.
 */
export const approvalsFromFlags = (
  values: ApprovalFlagValues,
  file?: FileApprovals,
): { ok: true; options: ApprovalSettings; notice?: string } | { ok: false; message: string } => {
  const options: ApprovalSettings = {}
  const given = values["approval-timeout"]
  const timeout = given ?? file?.timeout
  if (timeout !== undefined) {
    const ms = parseApprovalTimeout(timeout)
    if (ms === null)
      return {
        ok: false,
        message: `${given !== undefined ? "--approval-timeout" : "approvals.timeout"} must be ${APPROVAL_TIMEOUT_FORM} (got "${timeout}")`,
      }
    options.approvalTtlMs = ms
  }
  const off = values["no-approvals"] === true || file?.enabled === false
  if (!off) return { ok: true, options }
  options.approvals = false
  const why =
    values["no-approvals"] === true ? "--no-approvals" : 'the config file\'s "approvals": { "enabled": false }'
  return {
    ok: true,
    options,
    notice: `approvals are off (${why}): a call that would need a person's approval runs; a block rule still blocks`,
  }
}
