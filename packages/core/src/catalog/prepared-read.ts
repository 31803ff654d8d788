/**
 * A read made on every request or execute (a key by its hash, a source by namespace, a tool by path), written once
 * with named parameters. Building a query with drizzle's builder and compiling its SQL costs many times what
 * running it costs on SQLite, so a dialect that keeps one connection (`StoreDialect.reusesReads`) builds and
 * prepares it once, on first use, and runs that statement with each call's values. Any other dialect builds it
 * anew for each call, which is what running the builder does.
 *
 * Such a read has no `.limit(n)`: drizzle binds n as a parameter, and SQLite recompiles a statement whose LIMIT
 * was bound anew before each run, which costs as much as building it. A read of one row asks by a unique key.
 */
import { sql } from "drizzle-orm"
import type { Placeholder } from "drizzle-orm"
import type { StoreDialect } from "./dialect.js"

/** What a select on the builder offers: drizzle's prepared query, run with the placeholders' values. */
interface PreparableRead<Row> {
  prepare(): { execute(values: Record<string, unknown>): Promise<Row[]> | Row[] }
}

/** Builds the read on the dialect's `db`; `param(name)` is the placeholder the value named `name` fills at each run. */
export type ReadBuilder<Name extends string, Row> = (param: (name: Name) => Placeholder<Name>) => PreparableRead<Row>

export const preparedRead = <Name extends string, Row>(
  { reusesReads }: Pick<StoreDialect, "reusesReads">,
  build: ReadBuilder<Name, Row>,
): ((values: Record<Name, unknown>) => Promise<Row[]>) => {
  const param = (name: Name) => sql.placeholder(name)
  if (!reusesReads) return async (values) => build(param).prepare().execute(values)
  let prepared: ReturnType<PreparableRead<Row>["prepare"]> | undefined
  // prepared on first use: a store may be made before its database is migrated
  return async (values) => (prepared ??= build(param).prepare()).execute(values)
}
