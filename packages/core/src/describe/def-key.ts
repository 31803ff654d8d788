/**
 * The identity of a `$defs` entry across tools: its name, its schema and every local schema it reaches
 * through `$ref`. Two tools from one server that both carry `User` (each with only the definitions it uses,
 * as pydantic emits them) share one declaration; two `User`s that differ anywhere in what they reach do not.
 */
import { isRecord, own } from "../is-record.js"
import { parseLocalRef, pointerOf, resolveSegments } from "./json-pointer.js"

const MAX_NODES = 5000
const MAX_DEPTH = 64

class TooLarge extends Error {}

let uniqueCounter = 0

export const definitionKey = (
  root: unknown,
  name: string,
  target: unknown,
  prefix: string,
  rootName: string | undefined,
): string => {
  try {
    const closure = new Map<string, unknown>()
    let usesRoot = false
    const pending: unknown[] = [target]
    const budget = { left: MAX_NODES }
    while (pending.length > 0) {
      for (const ref of collectRefs(pending.pop(), budget)) {
        const segments = parseLocalRef(ref)
        if (!segments) continue
        if (segments.length === 0) {
          usesRoot = true
          continue
        }
        const pointer = pointerOf(segments)
        if (closure.has(pointer)) continue
        const value = resolveSegments(root, segments)
        closure.set(pointer, value)
        pending.push(value)
      }
    }
    const parts = [...closure].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    // The root is the tool's own alias, so a definition that refers to it is only the same under that name.
    return stableStringify([prefix, name, target, parts, usesRoot ? (rootName ?? null) : null], { left: MAX_NODES })
  } catch {
    return `\u0000unique:${++uniqueCounter}` // too large to compare: declared on its own
  }
}

const collectRefs = (value: unknown, budget: { left: number }): string[] => {
  const refs: string[] = []
  const stack: [unknown, number][] = [[value, 0]]
  while (stack.length > 0) {
    const [node, depth] = stack.pop() as [unknown, number]
    if (--budget.left < 0 || depth > MAX_DEPTH) throw new TooLarge()
    if (Array.isArray(node)) for (const item of node) stack.push([item, depth + 1])
    else if (isRecord(node)) {
      const ref = own(node, "$ref")
      if (typeof ref === "string") refs.push(ref)
      for (const key of Object.keys(node)) stack.push([node[key], depth + 1])
    }
  }
  return refs
}

/** JSON with sorted keys, so key order does not make two equal schemas differ. */
export const stableStringify = (value: unknown, budget: { left: number }, depth = 0): string => {
  if (--budget.left < 0 || depth > MAX_DEPTH) throw new TooLarge()
  if (Array.isArray(value)) return `[${value.map((v) => stableStringify(v, budget, depth + 1)).join(",")}]`
  if (isRecord(value)) {
    const keys = Object.keys(value).sort()
    return `{${keys.map((k) => `${JSON.stringify(k)}:${stableStringify(value[k], budget, depth + 1)}`).join(",")}}`
  }
  return JSON.stringify(value) ?? "null"
}
