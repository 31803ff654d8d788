/**
 * Collects the shapes of one execution's successful calls and writes them in one batch at its end.
 * Inference is bounded per call (see shapes/shape.ts), so a huge result costs about what a small one does.
 */
import type { CatalogStore, ShapeObservation } from "../catalog/rows.js"
import { keyOf } from "../catalog/shape-merge.js"
import { inferShape } from "../shapes/infer-shape.js"
import { mergeShapes } from "../shapes/merge-shapes.js"
import { mergeStoredShapes } from "../shapes/normalize-shape.js"
import { callersOf } from "../shapes/shape.js"
import type { CallerTag, Shape } from "../shapes/shape.js"

/** `caller`: whose execution this is (`callerTag`), marked on every key its results hold. */
export const createShapeObserver = (now: () => number, caller: CallerTag) => {
  // one array for every result of the execution: merging them keeps it rather than copying it per key
  const callers = callersOf(caller)
  const pending = new Map<string, { toolId: string; encoding: string; shape: Shape; samples: number; at: number }>()
  return {
    observe(toolId: string, encoding: string, data: unknown) {
      const key = keyOf(toolId, encoding)
      const shape = inferShape(data, callers)
      const seen = pending.get(key)
      if (seen) Object.assign(seen, { shape: mergeShapes(seen.shape, shape), samples: seen.samples + 1, at: now() })
      else pending.set(key, { toolId, encoding, shape, samples: 1, at: now() })
    },
    async flush(store: Pick<CatalogStore, "mergeShapes">) {
      if (pending.size === 0) return
      const observations: ShapeObservation[] = [...pending.values()]
      pending.clear()
      await store.mergeShapes(observations, mergeStoredShapes)
    },
  }
}
