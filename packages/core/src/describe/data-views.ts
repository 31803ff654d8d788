/**
 * Narrower declarations of a tool's data, for data types too long to be worth a model's tokens whole (a REST API's
 * repository object, with every shared type it reaches, runs to thousands). Each view is a JSON Schema that admits
 * every value the declared one admits, so a script typed against it still type-checks against what the tool
 * returns: a view only drops fields (objects stay open) or widens an object to `Record<string, unknown>`.
 *
 * - `dataToLevels`: the fields of the first `levels` object levels (array items stand at their array's level); an
 *   object deeper than that keeps only its field names, in its doc comment.
 * - `dataFields`: only the named fields (dotted paths through objects and array items), each in full.
 *
 * References are followed in place (a view's objects are bounded, so nothing is declared twice at length);
 * a field kept in full keeps its references, resolved against the root's `$defs`.
 */
import { isRecord, own } from "../is-record.js"
import { parseLocalRef, pointerOf, resolveSegments } from "./json-pointer.js"

/** Field names an object cut at the level bound lists; more are counted. */
const NAMED_FIELDS = 12
/** Schema nodes one view visits: past it, `{}` (unknown). */
const MAX_NODES = 20_000

const OBJECT_KEYWORDS = ["properties", "additionalProperties", "patternProperties"]
const FIELD_KEYWORDS = [...OBJECT_KEYWORDS, "required", "propertyNames", "minProperties", "maxProperties"]

type Schema = Record<string, unknown>

interface Walk {
  root: unknown
  budget: number
  /** references being followed, with the object level they were entered at: a second entry there is a cycle */
  following: Set<string>
  /** the objects cut at the level bound, whose description is the list of their fields */
  cuts: WeakSet<object>
}

export interface DataView {
  schema: unknown
  /** dataToLevels: whether any object was cut */
  cut: boolean
  /** dataFields: the named fields no object declares */
  unmatched: string[]
}

const isObjectNode = (node: Schema) => OBJECT_KEYWORDS.some((k) => Object.hasOwn(node, k))

/** The root's `$defs` and `definitions`, which a kept reference is resolved against. */
const withDefinitions = (root: unknown, view: unknown): unknown => {
  if (!isRecord(root) || !isRecord(view)) return view
  const kept: Schema = { ...view }
  for (const key of ["$defs", "definitions"]) if (Object.hasOwn(root, key)) kept[key] = root[key]
  return kept
}

/**
 * A copy of a node with its references followed in place and `again` applied to the subschemas at the node's own
 * level (array items, the members of anyOf, oneOf and allOf); `visitObject` decides an object node's fields.
 */
const walkNode = (
  node: unknown,
  walk: Walk,
  key: string,
  visitObject: (node: Schema, copy: Schema) => void,
  again: (child: unknown) => unknown,
): unknown => {
  if (--walk.budget < 0) return {}
  if (!isRecord(node)) return node
  const ref = own(node, "$ref")
  if (typeof ref === "string") {
    const segments = parseLocalRef(ref)
    const target = segments ? resolveSegments(walk.root, segments) : undefined
    const entry = segments ? `${pointerOf(segments)}@${key}` : ""
    if (target === undefined || walk.following.has(entry)) return {}
    walk.following.add(entry)
    const followed = again(target)
    walk.following.delete(entry)
    const view: Schema = isRecord(followed) ? { ...followed } : { anyOf: [followed] }
    // the reference's own description says what this use of it is, before a cut object's field names
    const description = own(node, "description")
    const cut = walk.cuts.has(followed as object)
    if (typeof description === "string") view.description = cut ? `${description}\n${view.description}` : description
    if (cut) walk.cuts.add(view)
    if (own(node, "nullable") !== true) return view
    const nullable = { anyOf: [view, { type: "null" }], description: view.description }
    if (cut) walk.cuts.add(nullable)
    return nullable
  }
  const entries: [string, unknown][] = []
  for (const [k, value] of Object.entries(node)) {
    if (k === "$defs" || k === "definitions" || FIELD_KEYWORDS.includes(k)) continue
    if (k === "items" || k === "additionalItems")
      entries.push([k, Array.isArray(value) ? value.map(again) : again(value)])
    else if (k === "prefixItems" || k === "anyOf" || k === "oneOf" || k === "allOf")
      entries.push([k, Array.isArray(value) ? value.map(again) : value])
    else entries.push([k, value])
  }
  // fromEntries: a key named `__proto__` stays a plain key
  const copy: Schema = Object.fromEntries(entries)
  if (isObjectNode(node) || own(node, "type") === "object") visitObject(node, copy)
  return copy
}

const fieldNamesNote = (properties: Schema) => {
  const names = Object.keys(properties)
  const shown = names.slice(0, NAMED_FIELDS).join(", ")
  return names.length > NAMED_FIELDS ? `fields: ${shown}, … (${names.length})` : `fields: ${shown}`
}

/** The schema's fields to `levels` object levels; deeper objects are open records that name their fields. */
export const dataToLevels = (schema: unknown, levels: number): DataView => {
  const walk: Walk = { root: schema, budget: MAX_NODES, following: new Set(), cuts: new WeakSet() }
  let cut = false
  const atLevel = (node: unknown, level: number): unknown =>
    walkNode(
      node,
      walk,
      String(level),
      (original, copy) => {
        const properties = own(original, "properties")
        if (level >= levels) {
          if (!isObjectNode(original)) return
          cut = true
          if (!Object.hasOwn(copy, "type")) copy.type = "object"
          // the names of its fields, not what the object's type is for: a model reading it wants the names
          if (isRecord(properties) && Object.keys(properties).length > 0) {
            copy.description = fieldNamesNote(properties)
            walk.cuts.add(copy)
          } else delete copy.description
          return
        }
        for (const k of FIELD_KEYWORDS) if (Object.hasOwn(original, k)) copy[k] = original[k]
        if (isRecord(properties))
          copy.properties = Object.fromEntries(
            Object.entries(properties).map(([name, value]) => [name, atLevel(value, level + 1)]),
          )
        const additional = own(original, "additionalProperties")
        if (isRecord(additional)) copy.additionalProperties = atLevel(additional, level + 1)
        const patterns = own(original, "patternProperties")
        if (isRecord(patterns))
          copy.patternProperties = Object.fromEntries(
            Object.entries(patterns).map(([pattern, value]) => [pattern, atLevel(value, level + 1)]),
          )
      },
      (child) => atLevel(child, level),
    )
  const view = withDefinitions(schema, atLevel(schema, 0))
  return { schema: view, cut, unmatched: [] }
}

/** A trie of dotted field paths: a name maps to its own named fields, or to null when it is kept whole. */
type Fields = Map<string, Fields | null>

const fieldTrie = (paths: readonly string[]): Fields => {
  const trie: Fields = new Map()
  for (const path of paths) {
    let node = trie
    const names = path.split(".").filter(Boolean)
    names.forEach((name, i) => {
      const last = i === names.length - 1
      const existing = node.get(name)
      if (existing === null) return // already kept whole
      if (last) node.set(name, null)
      else {
        const next = existing ?? new Map()
        node.set(name, next)
        node = next
      }
    })
  }
  return trie
}

/** Only the named fields of the schema's data, each in full; the paths that name no declared field are returned. */
export const dataFields = (schema: unknown, paths: readonly string[]): DataView => {
  const walk: Walk = { root: schema, budget: MAX_NODES, following: new Set(), cuts: new WeakSet() }
  const matched = new Set<string>()
  const picking = (node: unknown, fields: Fields, at: string): unknown =>
    walkNode(
      node,
      walk,
      at,
      (original, copy) => {
        const properties = own(original, "properties")
        // a field the object declares, else one its additional properties admit (when no pattern could claim it)
        const additional =
          own(original, "patternProperties") === undefined ? own(original, "additionalProperties") : undefined
        const kept: [string, unknown][] = []
        for (const [name, sub] of fields) {
          const declared = isRecord(properties) ? own(properties, name) : undefined
          const field = declared ?? (isRecord(additional) || additional === true ? additional : undefined)
          if (field === undefined) continue
          const path = at ? `${at}.${name}` : name
          matched.add(path)
          kept.push([name, sub === null ? field : picking(field, sub, path)])
        }
        copy.properties = Object.fromEntries(kept)
        const names = new Set(kept.map(([name]) => name))
        const required = own(original, "required")
        if (Array.isArray(required)) copy.required = required.filter((r) => typeof r === "string" && names.has(r))
      },
      (child) => picking(child, fields, at),
    )
  const view = withDefinitions(schema, picking(schema, fieldTrie(paths), ""))
  const named = paths.map((p) => p.split(".").filter(Boolean).join("."))
  return { schema: view, cut: false, unmatched: named.filter((p) => !matched.has(p)) }
}
