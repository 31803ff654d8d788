/** The SQLite and Postgres schemas must mean the same: same tables, columns, nullability, keys and indexes. */
import { getTableConfig as pgConfig } from "drizzle-orm/pg-core"
import type { PgTable } from "drizzle-orm/pg-core"
import { getTableConfig as sqliteConfig } from "drizzle-orm/sqlite-core"
import type { SQLiteTable } from "drizzle-orm/sqlite-core"
import { expect, it } from "vitest"
import * as pg from "./schema-pg.js"
import * as sqlite from "./schema-sqlite.js"

type Described = {
  columns: Record<string, { notNull: boolean; primary: boolean; unique: boolean }>
  indexes: string[]
  primaryKeys: string[][]
  foreignKeys: string[]
}

const describeTable = (config: ReturnType<typeof pgConfig> | ReturnType<typeof sqliteConfig>): Described => ({
  columns: Object.fromEntries(
    config.columns.map((c) => [c.name, { notNull: c.notNull, primary: c.primary, unique: c.isUnique }]),
  ),
  indexes: config.indexes
    .map(
      (i) =>
        `${i.config.name}:${i.config.unique ? "unique" : ""}:${i.config.columns.map((c) => (c as { name: string }).name).join(",")}`,
    )
    .sort(),
  primaryKeys: config.primaryKeys.map((k) => k.columns.map((c) => c.name)),
  foreignKeys: config.foreignKeys
    .map((f) => {
      const r = f.reference()
      return `${r.columns.map((c) => c.name)}->${getName(r.foreignTable)}.${r.foreignColumns.map((c) => c.name)}:${f.onDelete}`
    })
    .sort(),
})
const getName = (table: unknown) => (table as { [k: symbol]: string })[Symbol.for("drizzle:Name")]

it("both dialects declare the same tables", () => {
  expect(Object.keys(pg).sort()).toEqual(Object.keys(sqlite).sort())
})

it.each(Object.keys(sqlite))("%s has the same columns, nullability, keys and indexes in both dialects", (name) => {
  const s = describeTable(sqliteConfig((sqlite as Record<string, SQLiteTable>)[name]!))
  const p = describeTable(pgConfig((pg as Record<string, PgTable>)[name]!))
  expect(p).toEqual(s)
})
