/** `--retain` and `--retain-executions` (serve, demo): what the host's retention prunes (layers/retention.ts). */
import { describeRetention, parseRetention } from "@switchboard/core"
import type { RetentionPolicy } from "@switchboard/core"

export const retentionFlagOptions = {
  retain: { type: "string" },
  "retain-executions": { type: "string" },
} as const

export const retentionFlagsUsage = `--retain 7d (an age: s, m, h, d or w) and/or --retain-executions 100000: executions that started longer
  ago, or are not among the newest N, are pruned with their tool calls, in the background a minute after start and every 10 minutes;
  one whose output a model was told to read (read_output) is kept an hour at least. Without either, every execution is kept.`

export type RetentionFlagValues = Partial<Record<keyof typeof retentionFlagOptions, string>>

export const retentionFromFlags = (
  values: RetentionFlagValues,
): { ok: true; retain: RetentionPolicy | undefined; notice: string } | { ok: false; message: string } => {
  const parsed = parseRetention({ retain: values.retain, retainExecutions: values["retain-executions"] })
  return parsed.ok ? { ok: true, retain: parsed.policy, notice: describeRetention(parsed.policy) } : parsed
}
