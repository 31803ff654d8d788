/**
 * Merging observed shapes into `tool_shapes`: each round reads the stored rows, merges in memory, and writes one
 * batch of compare-and-set statements. An update applies only if the row still has the sample_count and
 * last_seen_at it was read with (every merge adds samples, so a row another writer merged into since never
 * matches), and a new row is inserted only if none exists. On SQLite and Postgres the reads run inside the
 * batch's transaction, under locks on the rows' keys, so a round always applies; on D1 they run before the
 * batch, and an observation whose statement changed nothing was raced by another writer: the next round reads
 * its row again and merges onto that. Within one store the merges of a (tool, encoding) take turns
 * (./key-lock.ts), so only other stores race. Past MAX_MERGE_ROUNDS the merge fails naming what it could not
 * write, rather than drop it: on D1 a store can lose every round to another whose own merges of the same tool
 * follow each other without a pause (each answer reaches it first, so its next read and write come first).
 */
import { and, eq, inArray } from "drizzle-orm"
import { DatabaseFault } from "../database-fault.js"
import { chunks } from "./chunks.js"
import { createKeyLock } from "./key-lock.js"
import type { ShapeObservation } from "./rows.js"
import type { StoreDialect, WriteStatement, CatalogDb, ShapeRow } from "./dialect.js"
import { preparedRead } from "./prepared-read.js"

/** rounds a merge makes before it gives up on observations other writers keep changing under it */
export const MAX_MERGE_ROUNDS = 16

type Merge = (stored: unknown, incoming: unknown) => unknown
type Pending = Map<string, ShapeObservation[]>

/** a (tool, encoding)'s key in memory: one shape row, and the observations merged into it */
export const keyOf = (toolId: string, encoding: string) => `${toolId}\u0000${encoding}`

/** its lock's key across stores: the same with ":" for NUL, which Postgres text cannot hold */
const lockKeyOf = (key: string) => `tool_shapes:${key.replace("\u0000", ":")}`

/** tools a round reads one by one with a prepared read, where the dialect reuses reads; more take one `in` query */
const READ_ONE_BY_ONE = 4

export const shapeMerger = (dialect: StoreDialect, around: <T>(operation: () => Promise<T>) => Promise<T>) => {
  const { tables, maxParameters, writeBatch, updateShape } = dialect
  const { toolShapes, tools } = tables
  const taking = createKeyLock()
  // a dialect that reuses reads has one connection, whose batches read on it too (`writeBatch` gives it `db`)
  const shapesOfTool = preparedRead(dialect, (param) =>
    dialect.db
      .select()
      .from(toolShapes)
      .where(eq(toolShapes.toolId, param("toolId"))),
  )

  /** A row's update, if it still has the counts it was read with (the dialect's own statement where it has one). */
  const update = (row: ShapeRow, read: ShapeRow, tx: CatalogDb): WriteStatement => {
    if (updateShape) return updateShape(row, read)
    const own = and(eq(toolShapes.toolId, row.toolId), eq(toolShapes.encoding, row.encoding))
    const unchanged = and(eq(toolShapes.sampleCount, read.sampleCount), eq(toolShapes.lastSeenAt, read.lastSeenAt))
    const { shape, sampleCount, firstSeenAt, lastSeenAt } = row
    return tx.update(toolShapes).set({ shape, sampleCount, firstSeenAt, lastSeenAt }).where(and(own, unchanged))
  }
  /** A new row, unless another writer inserted it first. */
  const insert = (tx: CatalogDb, toolId: string, encoding: string, merged: Omit<ShapeRow, "toolId" | "encoding">) =>
    tx
      .insert(toolShapes)
      .values({ toolId, encoding, ...merged })
      .onConflictDoNothing()

  /** The statements of one round, each with its key; drops from `pending` what has no tool any more. */
  const mergeStatements = async (tx: CatalogDb, pending: Pending, merge: Merge) => {
    const toolIds = [...new Set([...pending.values()].map(([o]) => o!.toolId))]
    const stored = new Map<string, ShapeRow>()
    if (dialect.reusesReads && toolIds.length <= READ_ONE_BY_ONE)
      for (const toolId of toolIds)
        for (const row of await shapesOfTool({ toolId })) stored.set(keyOf(row.toolId, row.encoding), row)
    else
      for (const ids of chunks(toolIds, maxParameters))
        for (const row of await tx.select().from(toolShapes).where(inArray(toolShapes.toolId, ids)))
          stored.set(keyOf(row.toolId, row.encoding), row)
    const unstored = [...new Set([...pending].filter(([key]) => !stored.has(key)).map(([, [o]]) => o!.toolId))]
    const existing = new Set<string>()
    for (const ids of chunks(unstored, maxParameters))
      for (const { id } of await tx.select({ id: tools.id }).from(tools).where(inArray(tools.id, ids))) existing.add(id)

    const statements: [string, WriteStatement][] = []
    // one order for every batch, so two that share rows take them in the same order
    for (const key of [...pending.keys()].sort()) {
      const observations = pending.get(key)!
      const { toolId, encoding } = observations[0]!
      const row = stored.get(key)
      // A re-sync may have removed the tool since the call; its shape has nowhere to go.
      if (!row && !existing.has(toolId)) {
        pending.delete(key)
        continue
      }
      let shape = row ? row.shape : observations[0]!.shape
      let sampleCount = row?.sampleCount ?? 0
      let firstSeenAt = row?.firstSeenAt ?? Number.POSITIVE_INFINITY
      let lastSeenAt = row?.lastSeenAt ?? Number.NEGATIVE_INFINITY
      observations.forEach((o, i) => {
        if (row || i > 0) shape = merge(shape, o.shape)
        sampleCount += o.samples
        firstSeenAt = Math.min(firstSeenAt, o.at)
        lastSeenAt = Math.max(lastSeenAt, o.at)
      })
      const merged = { shape, sampleCount, firstSeenAt, lastSeenAt }
      statements.push([
        key,
        row ? update({ toolId, encoding, ...merged }, row, tx) : insert(tx, toolId, encoding, merged),
      ])
    }
    return statements
  }

  /** One round, one batch. Removes from `pending` what it wrote. */
  const round = async (pending: Pending, merge: Merge) => {
    let keys: string[] = []
    const lockKeys = [...pending.keys()].map(lockKeyOf).sort()
    const changed = await writeBatch(
      async (tx) => {
        const statements = await mergeStatements(tx, pending, merge)
        keys = statements.map(([key]) => key)
        return statements.map(([, statement]) => statement)
      },
      { lockKeys },
    )
    keys.forEach((key, i) => {
      if ((changed[i] ?? 0) > 0) pending.delete(key)
    })
  }

  return async (observations: ShapeObservation[], merge: Merge): Promise<void> => {
    if (observations.length === 0) return
    // observations of one (tool, encoding), in the order given: merged onto the stored row one after another
    const pending: Pending = new Map()
    for (const o of observations) {
      const key = keyOf(o.toolId, o.encoding)
      const same = pending.get(key)
      if (same) same.push(o)
      else pending.set(key, [o])
    }
    await taking([...pending.keys()], async () => {
      for (let rounds = 0; pending.size > 0; rounds++) {
        if (rounds === MAX_MERGE_ROUNDS) {
          throw new DatabaseFault({
            message: `the shapes of ${pending.size} tool(s) were not merged: other writers changed the same rows in each of ${MAX_MERGE_ROUNDS} tries`,
          })
        }
        await around(() => round(pending, merge))
      }
    })
  }
}
