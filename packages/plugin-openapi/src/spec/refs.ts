/**
 * Local `$ref` resolution, on demand: nothing is dereferenced up front, so a spec's shared schemas stay shared
 * (GitHub's spec fully dereferenced is 73 MB of JSON, from 13 MB). A reference to another document has been
 * followed before (./remote-refs.ts, a spec by URL on its own origin); one left here is refused.
 */
import { isRecord, own } from "@switchboard/core"
import { SpecProblem } from "./spec-problem.js"

/** how many `$ref`s in a row one lookup follows (a ref to a ref ...) before it calls the chain a cycle */
const MAX_HOPS = 32

/** `#/components/schemas/a~1b` -> ["components", "schemas", "a/b"]; null for a reference outside the document. */
export const pointerSegments = (ref: string): string[] | null => {
  if (!ref.startsWith("#")) return null
  let fragment: string
  try {
    fragment = decodeURIComponent(ref.slice(1))
  } catch {
    return null
  }
  if (fragment === "") return []
  if (!fragment.startsWith("/")) return null
  return fragment
    .slice(1)
    .split("/")
    .map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"))
}

const lookup = (doc: unknown, segments: readonly string[]): unknown => {
  let current = doc
  for (const segment of segments) {
    if (Array.isArray(current)) current = /^(0|[1-9]\d*)$/.test(segment) ? current[Number(segment)] : undefined
    else if (isRecord(current)) current = own(current, segment)
    else return undefined
  }
  return current
}

export const refOf = (value: unknown): string | undefined => {
  if (!isRecord(value)) return undefined
  const ref = own(value, "$ref")
  return typeof ref === "string" ? ref : undefined
}

/** What `ref` (found at `where`) points at, or a SpecProblem naming `where`. */
export const resolveRef = (doc: unknown, ref: string, where: string): unknown => {
  const segments = pointerSegments(ref)
  if (!segments)
    throw new SpecProblem(where, `$ref ${JSON.stringify(ref)} points outside the document, which is not supported`)
  const target = lookup(doc, segments)
  if (target === undefined) throw new SpecProblem(where, `$ref ${JSON.stringify(ref)} points at nothing`)
  return target
}

/**
 * `value` with its `$ref` chain followed to the object it names (a parameter, a request body, a response), for
 * places where OpenAPI allows a Reference Object in place of the thing itself.
 */
export const deref = (doc: unknown, value: unknown, where: string): unknown => {
  let current = value
  for (let hop = 0; hop < MAX_HOPS; hop++) {
    const ref = refOf(current)
    if (ref === undefined) return current
    current = resolveRef(doc, ref, where)
  }
  throw new SpecProblem(where, `$ref chain longer than ${MAX_HOPS} (a reference cycle)`)
}
