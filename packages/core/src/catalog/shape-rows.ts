/** Observed shapes (`tool_shapes`): one row per tool and encoding; merging into them is ./shape-merge.ts. */
import { and, eq } from "drizzle-orm"
import { first } from "./chunks.js"
import type { StoreDialect } from "./dialect.js"
import type { StoredShape } from "./rows.js"

export const shapeRows = ({ db, tables }: StoreDialect) => {
  const { toolShapes } = tables
  const { shape, sampleCount, firstSeenAt, lastSeenAt } = toolShapes

  return {
    async getShape(toolId: string, encoding: string): Promise<StoredShape | null> {
      return first(
        await db
          .select({ shape, sampleCount, firstSeenAt, lastSeenAt })
          .from(toolShapes)
          .where(and(eq(toolShapes.toolId, toolId), eq(toolShapes.encoding, encoding)))
          .limit(1),
      )
    },
  }
}
