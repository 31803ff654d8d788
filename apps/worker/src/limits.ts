/**
 * The Worker's limits. An isolate has 128 MB in all, so the QuickJS module's memory (shared by every run in the
 * isolate) is capped at 64 MiB and one run may use 32 MiB of it. A D1 row holds about 2 MB: an execution's record
 * keeps its code and logs in one row (a large result is split across rows by the store), so a request body is at
 * most 1 MiB and a run's logs 512 KiB, and every record fits. The rest are the Node host's defaults.
 * `limits.cpu_ms` in wrangler.jsonc is the platform's hard stop behind the deadline (README: what a caller sees).
 */
import { defaultLimits } from "@switchboard/core"
import type { RunLimits } from "@switchboard/core"

export const WORKER_MODULE_MEMORY_BYTES = 64 * 1024 * 1024

export const WORKER_MAX_BODY_BYTES = 1024 * 1024

export const workerLimits: RunLimits = {
  ...defaultLimits,
  memoryBytes: 32 * 1024 * 1024,
  maxLogBytes: 512 * 1024,
}
