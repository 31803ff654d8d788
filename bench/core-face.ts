/**
 * A name of @switchboard/core from a tree's sources, wherever that tree keeps it: in the entry of its concept
 * (`packages/core/src/catalog/public.ts`) or at the top of its index. An A/B bench loads the other tree's core,
 * which may be older than this one.
 */
import { existsSync } from "node:fs"
import { resolve } from "node:path"
import { pathToFileURL } from "node:url"

export const coreName = async <T>(tree: string, concept: string, name: string): Promise<T> => {
  const entry = resolve(tree, "packages/core/src", concept, "public.ts")
  const file = existsSync(entry) ? entry : resolve(tree, "packages/core/src/index.ts")
  const found = ((await import(pathToFileURL(file).href)) as Record<string, unknown>)[name]
  if (found === undefined) throw new Error(`${tree}'s core has no ${name} in ${file}`)
  return found as T
}
