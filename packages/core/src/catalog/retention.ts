/**
 * Retention of execution records: which ones a prune deletes (./prune.ts), and the flags that say so. An execution
 * goes when it started longer ago than `maxAgeMs`, or when it is not among the newest `maxExecutions`; either
 * alone, or both (each is a bound of its own). One whose answer pointed a model at read_output is held past both
 * until its `keep_until`.
 */

/** how long an execution whose answer was cut at the inline cap, and named read_output, is kept at least */
export const POINTED_OUTPUT_HOLD_MS = 60 * 60 * 1000

export interface RetentionPolicy {
  /** executions that started longer ago than this are deleted */
  maxAgeMs?: number
  /** only the newest this many executions are kept (by start time) */
  maxExecutions?: number
}

const UNITS = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 } as const

/** the flags' text: `retain` an age such as "7d", "12h", "90m"; `retainExecutions` a count such as "100000" */
export interface RetentionText {
  retain?: string
  retainExecutions?: string
}

/**
 * The policy the flags (or a Worker's variables) name; `undefined` when neither is given: everything is kept.
 * `names`: what a message calls each setting.
 */
export const parseRetention = (
  { retain, retainExecutions }: RetentionText,
  names: Record<keyof RetentionText, string> = { retain: "--retain", retainExecutions: "--retain-executions" },
): { ok: true; policy: RetentionPolicy | undefined } | { ok: false; message: string } => {
  const policy: RetentionPolicy = {}
  if (retain !== undefined && retain.trim() !== "") {
    const match = /^(\d+)(s|m|h|d|w)$/.exec(retain.trim())
    const ms = match ? Number(match[1]) * UNITS[match[2] as keyof typeof UNITS] : Number.NaN
    if (!(Number.isSafeInteger(ms) && ms > 0))
      return { ok: false, message: `${names.retain} must be an age such as 7d, 12h or 90m (got "${retain}")` }
    policy.maxAgeMs = ms
  }
  if (retainExecutions !== undefined && retainExecutions.trim() !== "") {
    const count = /^\d+$/.test(retainExecutions.trim()) ? Number(retainExecutions.trim()) : Number.NaN
    if (!Number.isSafeInteger(count))
      return {
        ok: false,
        message: `${names.retainExecutions} must be a whole number of executions, such as 100000 (got "${retainExecutions}")`,
      }
    // 0 keeps none: every execution not held or paused would go at the next prune, a typo's cost
    if (count < 1)
      return {
        ok: false,
        message: `${names.retainExecutions} must be at least 1 (got "${retainExecutions}"); without it every execution is kept`,
      }
    policy.maxExecutions = count
  }
  return { ok: true, policy: Object.keys(policy).length > 0 ? policy : undefined }
}

/** The policy in words, for a log line or a start-up message. */
export const describeRetention = (policy: RetentionPolicy | undefined): string => {
  if (!policy) return "every execution is kept"
  const bounds: string[] = []
  if (policy.maxAgeMs !== undefined) bounds.push(`started in the last ${ageText(policy.maxAgeMs)}`)
  if (policy.maxExecutions !== undefined) bounds.push(`among the newest ${policy.maxExecutions}`)
  return `executions are kept while ${bounds.join(" and ")} (one whose output a model was told to read: an hour at least)`
}

/** in the largest unit up to days that divides it: "7d" stays "7d", not "1w" */
const ageText = (ms: number) => {
  for (const unit of ["d", "h", "m", "s"] as const) if (ms % UNITS[unit] === 0) return `${ms / UNITS[unit]}${unit}`
  return `${ms} ms`
}
