/**
 * References to other documents (`$ref: ./schemas.yaml#/Pet`), followed only on the spec's own origin and through
 * the host's fetch (its egress rules): each target is copied once into the spec's `components.schemas` under a name
 * of its own and the reference rewritten to it, so the compiler sees one document (a parameter or response put
 * there is only ever reached through a reference, never converted as a schema). A reference inside a copied target,
 * local to its document or not, is followed the same way. A spec given inline refers only within itself.
 */
import { isRecord, own } from "@switchboard/core"
import { pointerSegments } from "./refs.js"
import { SpecProblem, at } from "./spec-problem.js"

/** documents one spec may pull in */
export const MAX_REFERENCED_DOCUMENTS = 32

/** whether a spec's text has a reference that does not start with `#` (most specs have none: no walk, no fetch) */
export const hasRemoteRefs = (text: string) => /["']?\$ref["']?\s*:\s*["']?(?!#)[^\s"',}]/.test(text)

type Load = (url: string) => Promise<unknown>

const lookup = (doc: unknown, segments: readonly string[]): unknown => {
  let current = doc
  for (const segment of segments)
    current = isRecord(current) || Array.isArray(current) ? own(current as Record<string, unknown>, segment) : undefined
  return current
}

const nameFor = (url: URL, fragment: string, taken: Record<string, unknown>) => {
  const file =
    url.pathname
      .split("/")
      .pop()
      ?.replace(/\.(ya?ml|json)$/i, "") || "document"
  const base = `${file}${fragment.replace(/^\/?/, "_")}`.replace(/[^A-Za-z0-9._-]+/g, "_").replace(/_+$/, "")
  let name = base
  for (let n = 2; Object.hasOwn(taken, name); n++) name = `${base}_${n}`
  return name
}

export const bundleRemoteRefs = async (doc: Record<string, unknown>, specUrl: string, load: Load): Promise<void> => {
  const origin = new URL(specUrl).origin
  const components = (isRecord(doc.components) ? doc.components : (doc.components = {})) as Record<string, unknown>
  const schemas = (isRecord(components.schemas) ? components.schemas : (components.schemas = {})) as Record<
    string,
    unknown
  >
  const documents = new Map<string, Promise<unknown>>()
  const imported = new Map<string, string>()
  /** nodes to walk, each with the URL its references are relative to (null: the spec itself, whose `#` refs stay) */
  const pending: [node: unknown, base: string | null, where: string][] = [[doc, null, ""]]

  const documentAt = (url: string, where: string) => {
    let loaded = documents.get(url)
    if (!loaded) {
      if (documents.size >= MAX_REFERENCED_DOCUMENTS)
        throw new SpecProblem(where, `the spec refers to more than ${MAX_REFERENCED_DOCUMENTS} other documents`)
      documents.set(url, (loaded = load(url)))
    }
    return loaded
  }

  const follow = async (ref: string, base: string, where: string): Promise<string> => {
    const target = new URL(ref, base)
    if (target.origin !== origin)
      throw new SpecProblem(
        where,
        `$ref ${JSON.stringify(ref)} points at another origin (${target.origin}): only documents on the spec's own origin are followed`,
      )
    const fragment = target.hash.slice(1)
    target.hash = ""
    const key = `${target.href}#${fragment}`
    const known = imported.get(key)
    if (known) return known
    const segments = pointerSegments(`#${fragment}`)
    if (!segments) throw new SpecProblem(where, `$ref ${JSON.stringify(ref)} has a fragment that is not a JSON pointer`)
    const value = lookup(await documentAt(target.href, where), segments)
    if (value === undefined) throw new SpecProblem(where, `$ref ${JSON.stringify(ref)} points at nothing`)
    const name = nameFor(target, fragment, schemas)
    imported.set(key, name)
    Object.defineProperty(schemas, name, { value, enumerable: true, writable: true, configurable: true })
    pending.push([value, target.href, `${target.href}#${fragment}`])
    return name
  }

  /** reference objects already rewritten: a node reached twice (inside two copied targets) is rewritten once */
  const rewritten = new WeakSet<object>()
  while (pending.length > 0) {
    const [node, base, place] = pending.pop()!
    const stack: [unknown, string][] = [[node, place]]
    while (stack.length > 0) {
      const [current, where] = stack.pop()!
      if (Array.isArray(current)) current.forEach((item, index) => stack.push([item, at(where, index)]))
      else if (isRecord(current)) {
        const ref = own(current, "$ref")
        if (typeof ref === "string" && !rewritten.has(current) && (base !== null || !ref.startsWith("#"))) {
          const name = await follow(ref, base ?? specUrl, where)
          current.$ref = `#/components/schemas/${name.replace(/~/g, "~0").replace(/\//g, "~1")}`
          rewritten.add(current)
        }
        for (const key of Object.keys(current)) if (key !== "$ref") stack.push([current[key], at(where, key)])
      }
    }
  }
}
