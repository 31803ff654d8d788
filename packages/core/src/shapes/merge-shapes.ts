/**
 * Merging two shapes: the shape of data that is sometimes one and sometimes the other. Commutative, and
 * associative up to key order and the one-way switch of an object to a record. Inputs are never mutated.
 */
import { capShapeSize } from "./cap-shape-size.js"
import { isMapLike, isRareKey, rareKeyHash } from "./map-like.js"
import {
  type FieldShape,
  type ObjectShape,
  type RecordShape,
  type Shape,
  ShapeBounds,
  UNKNOWN,
  emptyFields,
  fieldEntries,
  fieldShape,
  getField,
  mergeCallers,
  setField,
  withCallers,
} from "./shape.js"

/** Union members sort in this order, so a merge renders the same whichever way round it ran. */
const SLOTS = ["string", "number", "boolean", "object", "array", "null"] as const
type Slot = (typeof SLOTS)[number]

const slotOf = (shape: Shape): Slot | "unknown" | "union" => (shape.kind === "record" ? "object" : shape.kind)

export const mergeShapes = (a: Shape, b: Shape): Shape => capShapeSize(merge(a, b))

/** The merge without the final size cap, for callers that cap once at the end. */
export const merge = (a: Shape, b: Shape): Shape => {
  if (a.kind === "unknown" || b.kind === "unknown") return UNKNOWN
  if (a.kind !== "union" && b.kind !== "union" && slotOf(a) === slotOf(b)) return mergeSameSlot(a, b) // the common case
  const bySlot = new Map<Slot, Shape>()
  for (const member of [...membersOf(a), ...membersOf(b)]) {
    const slot = slotOf(member)
    if (slot === "unknown" || slot === "union") return UNKNOWN
    const previous = bySlot.get(slot)
    bySlot.set(slot, previous ? mergeSameSlot(previous, member) : member)
  }
  return unionOf(SLOTS.flatMap((slot) => bySlot.get(slot) ?? []))
}

const membersOf = (shape: Shape): Shape[] => (shape.kind === "union" ? shape.members : [shape])

const unionOf = (members: Shape[]): Shape => {
  if (members.length === 0 || members.length > ShapeBounds.maxUnionMembers) return UNKNOWN
  if (members.length === 1) return members[0] as Shape
  return { kind: "union", members }
}

const mergeSameSlot = (a: Shape, b: Shape): Shape => {
  if (a.kind === "array" && b.kind === "array") {
    return { kind: "array", items: a.items && b.items ? merge(a.items, b.items) : (a.items ?? b.items) }
  }
  if (a.kind === "object" && b.kind === "object") return mergeObjects(a, b)
  if (a.kind === "record" && b.kind === "record") return { kind: "record", values: merge(a.values, b.values) }
  if (a.kind === "record" && b.kind === "object") return absorbIntoRecord(a, b)
  if (a.kind === "object" && b.kind === "record") return absorbIntoRecord(b, a)
  return a // the same scalar kind
}

const mergeObjects = (a: ObjectShape, b: ObjectShape): Shape => {
  const fields = emptyFields()
  for (const [key, field] of fieldEntries(a.fields)) {
    const other = getField(b.fields, key)
    if (!other) {
      setField(fields, key, field)
      continue
    }
    const by = mergeCallers(field.by, other.by)
    const shape = merge(field.shape, other.shape)
    const seen = field.seen + other.seen
    setField(fields, key, fieldShape(shape, seen, by))
  }
  for (const [key, field] of fieldEntries(b.fields)) if (!getField(a.fields, key)) setField(fields, key, field)
  return objectOrRecord(fields, a.samples + b.samples, a.rare && b.rare ? [...a.rare, ...b.rare] : (a.rare ?? b.rare))
}

const absorbIntoRecord = (record: RecordShape, object: ObjectShape): RecordShape => {
  let values = record.values
  for (const [, field] of fieldEntries(object.fields)) values = merge(values, field.shape)
  return { kind: "record", values }
}

/**
 * An object, unless its keys say it is a map (see ./map-like.ts). A key seen in only one of many samples is
 * kept as a hash in `rare` instead of by name, since it could be one caller's data; when a key comes back
 * whose hash is there, it has been seen twice and becomes a field again.
 */
export const objectOrRecord = (
  fields: Record<string, FieldShape>,
  samples: number,
  rare: readonly string[] = [],
): ObjectShape | RecordShape => {
  const entries = fieldEntries(fields)
  if (isMapLike(entries, samples, rare.length)) {
    let values: Shape | null = null
    for (const [, field] of entries) values = values ? merge(values, field.shape) : field.shape
    return { kind: "record", values: values ?? UNKNOWN }
  }
  if (rare.length === 0 && !entries.some(([, field]) => isRareKey(field, samples)))
    return { kind: "object", samples, fields }
  const parked = [...new Set(rare)]
  const kept = emptyFields()
  for (const [key, field] of entries) {
    if (!isRareKey(field, samples)) {
      setField(kept, key, field)
      continue
    }
    const hash = rareKeyHash(key)
    const at = parked.indexOf(hash)
    if (at >= 0) {
      parked.splice(at, 1)
      setField(kept, key, withCallers(field, field.shape, 2))
    } else parked.push(hash)
  }
  const bounded = parked.slice(-ShapeBounds.maxKeys)
  return bounded.length > 0
    ? { kind: "object", samples, fields: kept, rare: bounded }
    : { kind: "object", samples, fields: kept }
}
