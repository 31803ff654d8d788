/**
 * The schemas a source's tools share (`source_definitions`, seams.ts Discovery.definitions): written with the tools
 * at a sync, and added back to a tool's schemas as their `$defs` when one tool is read, only the ones its schemas
 * reach, read in rounds (a definition's own references are found as it is read). A tool whose schemas name no
 * definition they do not hold costs no query.
 */
import { and, eq, inArray, ne, sql } from "drizzle-orm"
import { isRecord, own } from "../is-record.js"
import { chunks, rowsPerInsert } from "./chunks.js"
import type { CatalogDb, StoreDialect, WriteStatement } from "./dialect.js"
import type { ToolRow } from "./rows.js"

const DEFS_PREFIX = "#/$defs/"
/** a schema is walked this far for its references, no further (a definition's size is the spec's) */
const MAX_NODES = 200_000
/** rounds of reading: a chain of definitions deeper than this is cut (its last names stay unresolved) */
const MAX_ROUNDS = 64

const definitionName = (ref: string): string | null => {
  if (!ref.startsWith(DEFS_PREFIX)) return null
  const segment = ref.slice(DEFS_PREFIX.length).split("/")[0]!
  try {
    return decodeURIComponent(segment).replace(/~1/g, "/").replace(/~0/g, "~")
  } catch {
    return null
  }
}

/** the definition names a schema refers to (not looking inside its own `$defs`, which it holds) */
const referencedNames = (schema: unknown, into = new Set<string>()): Set<string> => {
  const stack: unknown[] = [schema]
  let budget = MAX_NODES
  while (stack.length > 0 && budget-- > 0) {
    const node = stack.pop()
    if (Array.isArray(node)) stack.push(...node)
    else if (isRecord(node)) {
      const ref = own(node, "$ref")
      const name = typeof ref === "string" ? definitionName(ref) : null
      if (name !== null) into.add(name)
      for (const key of Object.keys(node)) if (node !== schema || key !== "$defs") stack.push(node[key])
    }
  }
  return into
}

const ownDefinitions = (schema: unknown) => {
  const defs = isRecord(schema) ? own(schema, "$defs") : undefined
  return isRecord(defs) ? defs : undefined
}

/** the names a tool's schema needs from its source: what it refers to that its own `$defs` lacks */
const missingNames = (schema: unknown): string[] => {
  const held = ownDefinitions(schema)
  return [...referencedNames(schema)].filter((name) => !held || !Object.hasOwn(held, name))
}

export const schemaDefinitions = ({
  db,
  tables,
  maxParameters,
}: Pick<StoreDialect, "db" | "tables" | "maxParameters">) => {
  const { sourceDefinitions } = tables
  const perInsert = rowsPerInsert(sourceDefinitions, maxParameters)

  /** every definition `names` reach, read in rounds from the source's rows */
  const closureOf = async (sourceId: string, names: Iterable<string>) => {
    const found = new Map<string, unknown>()
    let wanted = [...new Set(names)]
    for (let round = 0; wanted.length > 0 && round < MAX_ROUNDS; round++) {
      for (const name of wanted) found.set(name, undefined)
      const next = new Set<string>()
      for (const chunk of chunks(wanted, Math.max(1, maxParameters - 1))) {
        const rows = await db
          .select({ name: sourceDefinitions.name, schema: sourceDefinitions.schema })
          .from(sourceDefinitions)
          .where(and(eq(sourceDefinitions.sourceId, sourceId), inArray(sourceDefinitions.name, chunk)))
        for (const row of rows) {
          found.set(row.name, row.schema)
          referencedNames(row.schema, next)
        }
      }
      wanted = [...next].filter((name) => !found.has(name))
    }
    return found
  }

  /** `schema` with the definitions it reaches added as its `$defs` (those its own `$defs` lack) */
  const withClosure = (schema: unknown, pool: Map<string, unknown>) => {
    const missing = missingNames(schema)
    if (missing.length === 0 || !isRecord(schema)) return schema
    const defs: Record<string, unknown> = { ...ownDefinitions(schema) }
    const stack = [...missing]
    while (stack.length > 0) {
      const name = stack.pop()!
      const value = pool.get(name)
      if (value === undefined || Object.hasOwn(defs, name)) continue
      Object.defineProperty(defs, name, { value, enumerable: true, writable: true, configurable: true })
      stack.push(...referencedNames(value))
    }
    return Object.keys(defs).length === 0 ? schema : { ...schema, $defs: defs }
  }

  return {
    /** statements that make `definitions` the source's whole set, stamped `syncedAt` */
    replace(tx: CatalogDb, sourceId: string, definitions: Record<string, unknown>, syncedAt: number): WriteStatement[] {
      const rows = Object.keys(definitions).map((name) => ({ sourceId, name, schema: definitions[name], syncedAt }))
      return [
        ...Array.from(chunks(rows, perInsert), (chunk) =>
          tx
            .insert(sourceDefinitions)
            .values(chunk)
            .onConflictDoUpdate({
              target: [sourceDefinitions.sourceId, sourceDefinitions.name],
              set: { schema: sql`excluded."schema"`, syncedAt: sql`excluded."synced_at"` },
            }),
        ),
        tx
          .delete(sourceDefinitions)
          .where(and(eq(sourceDefinitions.sourceId, sourceId), ne(sourceDefinitions.syncedAt, syncedAt))),
      ] as WriteStatement[]
    },

    async attach(rows: ToolRow[]): Promise<ToolRow[]> {
      const bySource = new Map<string, Set<string>>()
      for (const row of rows)
        for (const schema of [row.inputSchema, row.outputSchema])
          for (const name of missingNames(schema)) {
            const names = bySource.get(row.sourceId) ?? new Set<string>()
            bySource.set(row.sourceId, names.add(name))
          }
      if (bySource.size === 0) return rows
      const pools = new Map<string, Map<string, unknown>>()
      for (const [sourceId, names] of bySource) pools.set(sourceId, await closureOf(sourceId, names))
      return rows.map((row) => {
        const pool = pools.get(row.sourceId)
        if (!pool) return row
        return {
          ...row,
          inputSchema: withClosure(row.inputSchema, pool),
          outputSchema: withClosure(row.outputSchema, pool),
        }
      })
    },
  }
}
