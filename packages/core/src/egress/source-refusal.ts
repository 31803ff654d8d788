/**
 * A source this server will not start or reach, by its configuration (a stdio source without --allow-stdio, an
 * address the host's egress guard refuses): a value with a stable code (SourceRefusalCodes), never a failure of the
 * source; nothing was attempted upstream. Every source plugin and a host's egress guard share this one type.
 */
import { Data } from "effect"
import type { SourceRefusalCode } from "../seams.js"

export class SourceRefusal extends Data.TaggedError("SourceRefusal")<{ code: SourceRefusalCode; message: string }> {}

/** A tag check rather than `instanceof` (ARCHITECTURE.md: tagged errors): a host's fetch may throw it from another copy of this package. */
export const isSourceRefusal = (value: unknown): value is SourceRefusal =>
  typeof value === "object" && value !== null && (value as { _tag?: unknown })._tag === "SourceRefusal"

/** The refusal in an error or in its `cause` chain: an SDK and fetch wrap what a guarded fetch throws. */
export const findRefusal = (cause: unknown): SourceRefusal | null => {
  let current = cause
  for (let depth = 0; depth < 6 && typeof current === "object" && current !== null; depth++) {
    if (isSourceRefusal(current)) return current
    current = (current as { cause?: unknown }).cause
  }
  return null
}
