/**
 * Ids for rows written on every execute (executions, tool_calls). They are UUID v7 (RFC 9562): a millisecond
 * timestamp first, so a new primary key lands at the end of the B-tree instead of on a random page (SQLite
 * here: one record per transaction 87 → 75 µs, 32 per transaction 24 → 10 µs each). Within one millisecond
 * the `uuid` package counts up, so ids from one process stay in order. It uses only the global
 * `crypto.getRandomValues`, on Node and on Workers alike.
 */
import { v7 } from "uuid"

export const timeOrderedId = (): string => v7()
