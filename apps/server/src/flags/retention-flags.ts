/** `--retain` and `--retain-executions` (serve, demo): what the host's retention prunes (layers/retention.ts). */
import * as Catalog from "@switchboard/core/catalog"
import type { retentionFlags } from "../cli/flags.js"

export type RetentionFlagValues = Partial<Record<keyof typeof retentionFlags, string>>

export const retentionFromFlags = (
  values: RetentionFlagValues,
): { ok: true; retain: Catalog.RetentionPolicy | undefined; notice: string } | { ok: false; message: string } => {
  const parsed = Catalog.parseRetention({ retain: values.retain, retainExecutions: values["retain-executions"] })
  return parsed.ok ? { ok: true, retain: parsed.policy, notice: Catalog.describeRetention(parsed.policy) } : parsed
}
