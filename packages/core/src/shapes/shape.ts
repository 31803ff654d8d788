/**
 * The shape of a tool's decoded `data`, learned from real calls (ARCHITECTURE.md: shapes and describe). Types only: a shape never holds
 * a value, a key's value or string content. It is plain JSON, stored as `tool_shapes.shape`.
 *
 * `unknown` absorbs in a merge (`unknown | T` is `unknown`): it marks a place past a bound, where the data
 * could be anything. An object counts how many instances it merged (`samples`) and, per key, how many of
 * them had it (`seen`): a key seen in every sample is required, one seen in fewer is optional.
 */
export type Shape =
  | { kind: "unknown" }
  | { kind: "string" }
  | { kind: "number" }
  | { kind: "boolean" }
  | { kind: "null" }
  | ArrayShape
  | ObjectShape
  | RecordShape
  | UnionShape

export interface ArrayShape {
  kind: "array"
  /** the merged shape of the sampled items; null when only empty arrays were seen */
  items: Shape | null
}

export interface FieldShape {
  shape: Shape
  /** how many of the object's samples had this key */
  seen: number
  /**
   * Which callers' results held this key: a short hash of each API key, at most two (`callerTag`). Describe
   * names a key only once two callers' results held it, since a key one caller's results hold could be that
   * caller's data. Absent when every observation was made with keys off: one caller, the operator.
   */
  by?: string[]
}

export interface ObjectShape {
  kind: "object"
  /** how many object instances were merged into this shape */
  samples: number
  /** keyed by the exact key; a null-prototype map in memory, so a key like `__proto__` is just a key */
  fields: Record<string, FieldShape>
  /**
   * Keys seen in only one of many samples, not kept (./map-like.ts): a short hash of each, never the key, so
   * that a second sighting can promote the key to a field. At most `maxKeys`; absent when none.
   */
  rare?: string[]
}

/** A map-like object (keys that differ per call): `Record<string, values>`. */
export interface RecordShape {
  kind: "record"
  values: Shape
}

/** At least two members, each of a different kind (object and record share one slot), never `unknown`. */
export interface UnionShape {
  kind: "union"
  members: Shape[]
}

export type ScalarKind = "unknown" | "string" | "number" | "boolean" | "null"

/** Bounds on observation, so a large result costs a call little. Past one, the shape is `unknown` at that point. */
export const ShapeBounds = {
  /** container nesting levels kept; a container deeper than this is `unknown` */
  maxDepth: 8,
  /** keys per object; an object with more is map-like and becomes a record */
  maxKeys: 64,
  /** members per union; a wider union is `unknown` */
  maxUnionMembers: 8,
  /** array items sampled per array, spread evenly over it */
  maxArrayItems: 50,
  /** values inspected per inference, whatever the size of the input */
  maxVisited: 5000,
  /** nodes kept in one shape; a shape over it keeps its shallowest nodes and turns the rest `unknown` */
  maxShapeNodes: 1000,
} as const

/** A caller a shape is observed for; `undefined` with keys off. */
export type CallerTag = string | undefined

/** Two callers are enough to show a key; more are not counted. */
export const MAX_CALLER_TAGS = 2

/**
 * The `by` of a merged field: absent if either side was observed with keys off, else both sides' callers. `a`
 * itself when `b` adds no caller to it (the one execution's array on both sides, or tags `a` already holds).
 */
export const mergeCallers = (a: string[] | undefined, b: string[] | undefined): string[] | undefined => {
  if (a === undefined || b === undefined) return undefined
  if (a.length >= MAX_CALLER_TAGS || a === b) return a
  let out: string[] | undefined
  for (const tag of b) {
    if (a.includes(tag) || out?.includes(tag)) continue
    out ??= [...a]
    if (out.length < MAX_CALLER_TAGS) out.push(tag)
  }
  return out ?? a
}

/** The callers of one observation: `[caller]`, or absent with keys off. Built once and shared by its fields. */
export const callersOf = (caller: CallerTag): string[] | undefined => (caller === undefined ? undefined : [caller])

/** A field is named to every caller once results of two callers held it, or keys were off. */
export const isSharedField = (field: FieldShape): boolean =>
  field.by === undefined || field.by.length >= MAX_CALLER_TAGS

/** A field, with `by` only when there are callers to name (no `by: undefined` key in stored JSON). */
export const fieldShape = (shape: Shape, seen: number, by?: string[]): FieldShape =>
  by === undefined ? { shape, seen } : { shape, seen, by }

/** A field with its `by` (when it has one) carried to a new shape or count. */
export const withCallers = (field: FieldShape, shape: Shape, seen: number): FieldShape =>
  fieldShape(shape, seen, field.by)

const scalars: Record<ScalarKind, Shape> = {
  unknown: { kind: "unknown" },
  string: { kind: "string" },
  number: { kind: "number" },
  boolean: { kind: "boolean" },
  null: { kind: "null" },
}

/** Shared scalar shapes; shapes are never mutated after they are built, so sharing is safe. */
export const scalarShape = (kind: ScalarKind): Shape => scalars[kind]

export const UNKNOWN: Shape = scalars.unknown

export const emptyFields = (): Record<string, FieldShape> => Object.create(null) as Record<string, FieldShape>

/** Own keys only: a stored shape comes back from JSON.parse with Object.prototype behind it. */
export const fieldEntries = (fields: Record<string, FieldShape>): [string, FieldShape][] =>
  Object.keys(fields).map((key) => [key, fields[key] as FieldShape])

export const getField = (fields: Record<string, FieldShape>, key: string): FieldShape | undefined =>
  Object.hasOwn(fields, key) ? fields[key] : undefined

/**
 * Only ever called on a map from `emptyFields()`: with no prototype there is no `__proto__` setter, so
 * assigning that key creates an own property like any other.
 */
export const setField = (fields: Record<string, FieldShape>, key: string, field: FieldShape): void => {
  fields[key] = field
}
