/**
 * Reads a shape back from storage. The column holds JSON we wrote, but a row from another build or a hand
 * edit must not break describe or the next merge: anything that is not a well-formed shape becomes `unknown`
 * at that point, and unions are re-merged so their invariants hold.
 */
import { capShapeSize } from "./cap-shape-size.js"
import { isRecord, own } from "../is-record.js"
import { merge, mergeShapes, objectOrRecord } from "./merge-shapes.js"
import {
  MAX_CALLER_TAGS,
  type Shape,
  ShapeBounds,
  UNKNOWN,
  emptyFields,
  fieldShape,
  scalarShape,
  setField,
} from "./shape.js"

interface Budget {
  left: number
}

export const normalizeShape = (value: unknown): Shape => {
  try {
    return capShapeSize(normalize(value, 1, { left: 2 * ShapeBounds.maxShapeNodes }))
  } catch {
    return UNKNOWN
  }
}

/**
 * The merge the store runs on a stored row and an incoming observation (`CatalogStore.mergeShapes`). A stored
 * value that is not a shape at all is replaced rather than merged: `unknown` would absorb every later call.
 */
export const mergeStoredShapes = (stored: unknown, incoming: unknown): Shape => {
  const next = normalizeShape(incoming)
  return isRecord(stored) && KINDS.has(own(stored, "kind")) ? mergeShapes(normalizeShape(stored), next) : next
}

const KINDS = new Set<unknown>(["unknown", "string", "number", "boolean", "null", "array", "object", "record", "union"])

const count = (value: unknown, fallback: number): number =>
  typeof value === "number" && Number.isSafeInteger(value) && value > 0 ? value : fallback

const TAG = /^[0-9a-f]{8}$/

/** Anything but a list of tags reads as one unknown caller: a stored row must never make a key more visible. */
const callerTags = (value: unknown): string[] | undefined => {
  if (value === undefined) return undefined
  if (!Array.isArray(value)) return ["00000000"]
  const tags = value.filter((tag): tag is string => typeof tag === "string" && TAG.test(tag))
  return tags.length === 0 ? ["00000000"] : [...new Set(tags)].slice(0, MAX_CALLER_TAGS)
}

const normalize = (value: unknown, level: number, budget: Budget): Shape => {
  if (!isRecord(value) || --budget.left < 0) return UNKNOWN
  const kind = own(value, "kind")
  switch (kind) {
    case "string":
    case "number":
    case "boolean":
    case "null":
    case "unknown":
      return scalarShape(kind)
    case "union": {
      const members = own(value, "members")
      if (!Array.isArray(members) || members.length === 0) return UNKNOWN
      let out: Shape | null = null
      for (const member of members.slice(0, ShapeBounds.maxUnionMembers + 1)) {
        const shape = normalize(member, level, budget)
        out = out ? merge(out, shape) : shape
      }
      return members.length > ShapeBounds.maxUnionMembers ? UNKNOWN : (out ?? UNKNOWN)
    }
  }
  if (level > ShapeBounds.maxDepth) return UNKNOWN
  switch (kind) {
    case "array": {
      const items = own(value, "items")
      return {
        kind: "array",
        items: items === null || items === undefined ? null : normalize(items, level + 1, budget),
      }
    }
    case "record":
      return { kind: "record", values: normalize(own(value, "values"), level + 1, budget) }
    case "object": {
      const rawFields = own(value, "fields")
      if (!isRecord(rawFields)) return UNKNOWN
      const samples = count(own(value, "samples"), 1)
      const fields = emptyFields()
      for (const key of Object.keys(rawFields).slice(0, ShapeBounds.maxKeys + 1)) {
        const field = own(rawFields, key)
        if (!isRecord(field)) continue
        const shape = normalize(own(field, "shape"), level + 1, budget)
        const seen = Math.min(samples, count(own(field, "seen"), 1))
        const by = callerTags(own(field, "by"))
        setField(fields, key, fieldShape(shape, seen, by))
      }
      const rare = own(value, "rare")
      const hashes = Array.isArray(rare)
        ? rare
            .slice(0, ShapeBounds.maxKeys)
            .filter((hash): hash is string => typeof hash === "string" && /^[0-9a-f]{8}$/.test(hash))
        : []
      return objectOrRecord(fields, samples, hashes)
    }
    default:
      return UNKNOWN
  }
}
