/**
 * Merging observed shapes into `tool_shapes` without a transaction around the read: each round reads the stored
 * rows, merges in memory, and writes one batch of compare-and-set statements. An update applies only if the row
 * still has the sample_count and last_seen_at it was read with (every merge adds samples, so a row another writer
 * merged into since never matches), and a new row is inserted only if none exists. An observation whose statement
 * changed nothing was raced by another writer: the next round reads its row again and merges onto that. Within
 * one store the merges of a (tool, encoding) take turns (./key-lock.ts), so only other servers race; a round
 * waits a little (random, doubling) before it tries again, and past MAX_ROUNDS the merge fails naming what it
 * could not write, rather than drop it.
 */
import { and, eq, inArray } from "drizzle-orm"
import { DatabaseFault } from "./database-fault.js"
import { chunks } from "./chunks.js"
import { createKeyLock } from "./key-lock.js"
import type { ShapeObservation } from "./rows.js"
import type { StoreDialect, WriteStatement, CatalogDb } from "./dialect.js"

/** rounds a merge makes before it gives up on observations other writers keep changing under it */
export const MAX_MERGE_ROUNDS = 8

type Merge = (stored: unknown, incoming: unknown) => unknown

const pause = (round: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.random() * 2 ** round))

export const shapeMerger = (
  { db, tables, maxParameters, writeBatch }: StoreDialect,
  around: <T>(operation: () => Promise<T>) => Promise<T>,
) => {
  const { toolShapes, tools } = tables
  const taking = createKeyLock()
  const keyOf = (row: { toolId: string; encoding: string }) => `${row.toolId}\u0000${row.encoding}`

  /** One round: reads, merges, one batch. Removes from `pending` what it wrote, and what has no tool any more. */
  const round = async (pending: Map<string, ShapeObservation[]>, merge: Merge) => {
    const toolIds = [...new Set([...pending.values()].map(([o]) => o!.toolId))]
    const stored = new Map<string, typeof toolShapes.$inferSelect>()
    for (const ids of chunks(toolIds, maxParameters))
      for (const row of await db.select().from(toolShapes).where(inArray(toolShapes.toolId, ids)))
        stored.set(keyOf(row), row)
    const unstored = [...new Set([...pending].filter(([key]) => !stored.has(key)).map(([, [o]]) => o!.toolId))]
    const existing = new Set<string>()
    for (const ids of chunks(unstored, maxParameters))
      for (const { id } of await db.select({ id: tools.id }).from(tools).where(inArray(tools.id, ids))) existing.add(id)

    const writes: { key: string; build: (tx: CatalogDb) => WriteStatement }[] = []
    // one order for every batch, so two that share rows lock them in the same order (Postgres)
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
      const own = and(eq(toolShapes.toolId, toolId), eq(toolShapes.encoding, encoding))
      writes.push({
        key,
        build: row
          ? (tx) =>
              tx
                .update(toolShapes)
                .set(merged)
                .where(and(own, eq(toolShapes.sampleCount, row.sampleCount), eq(toolShapes.lastSeenAt, row.lastSeenAt)))
          : (tx) =>
              tx
                .insert(toolShapes)
                .values({ toolId, encoding, ...merged })
                .onConflictDoNothing(),
      })
    }
    if (writes.length === 0) return
    const changed = await writeBatch((tx) => writes.map((write) => write.build(tx)))
    writes.forEach((write, i) => {
      if ((changed[i] ?? 0) > 0) pending.delete(write.key)
    })
  }

  return async (observations: ShapeObservation[], merge: Merge): Promise<void> => {
    if (observations.length === 0) return
    // observations of one (tool, encoding), in the order given: merged onto the stored row one after another
    const pending = new Map<string, ShapeObservation[]>()
    for (const o of observations) {
      const key = keyOf(o)
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
        if (rounds > 0) await pause(rounds)
        await around(() => round(pending, merge))
      }
    })
  }
}
