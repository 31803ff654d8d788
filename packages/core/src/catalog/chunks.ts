/** Cutting a write into statements a dialect accepts: each binds at most its `maxParameters` (D1: 100). */
import { getTableColumns } from "drizzle-orm"
import type { Table } from "drizzle-orm"

/**
 * the most rows one multi-row statement takes, whatever the dialect allows: on SQLite a statement a row costs many
 * times a bare insert, and past a few hundred rows a statement gains nothing (bench/catalog-sync.ts)
 */
const MAX_ROWS = 200

/** rows of `table` per multi-row insert: every column of a row is one bound parameter */
export const rowsPerInsert = (table: Table, maxParameters: number) =>
  Math.max(1, Math.min(MAX_ROWS, Math.floor(maxParameters / Object.keys(getTableColumns(table)).length)))

/** the first row a query read, or null */
export const first = <T>(rows: T[]): T | null => rows[0] ?? null

/**
 * `items` in order, in chunks of at most `maxItems`, and of at most `maxSize` by `size` in all (an item larger
 * than that goes alone)
 */
export function* chunks<T>(
  items: readonly T[],
  maxItems: number,
  size: (item: T) => number = () => 0,
  maxSize = Number.POSITIVE_INFINITY,
): Generator<T[]> {
  let chunk: T[] = []
  let total = 0
  for (const item of items) {
    const own = size(item)
    if (chunk.length > 0 && (chunk.length === maxItems || total + own > maxSize)) {
      yield chunk
      chunk = []
      total = 0
    }
    chunk.push(item)
    total += own
  }
  if (chunk.length > 0) yield chunk
}
