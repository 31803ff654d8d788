/**
 * The names and declarations of one describe output. Several tools rendered into one scope declare an
 * identical `$defs` entry once and never give two different types the same name.
 */
import { TOOL_RESULT_NAMES } from "./tool-result-declaration.js"

export interface Declaration {
  text: string
  /** the aliases this declaration refers to */
  uses: readonly string[]
}

export interface TypeScope {
  readonly taken: Set<string>
  /** a definition's identity (see ./def-key.ts) -> the alias it is declared under */
  readonly byKey: Map<string, string>
  /** in the order they were completed: a definition after the ones it refers to, cycles aside */
  readonly declarations: Map<string, Declaration>
}

/**
 * Global types a script already sees (lib.es and lib.dom) and TypeScript's own type names: a top-level
 * `type Date = ...` pasted above a script would clash with them.
 */
const GLOBAL_NAMES = [
  ...TOOL_RESULT_NAMES,
  "Array",
  "ArrayBuffer",
  "Awaited",
  "BigInt",
  "Blob",
  "Boolean",
  "Date",
  "Document",
  "Element",
  "Error",
  "Event",
  "Exclude",
  "Extract",
  "File",
  "Function",
  "Headers",
  "Image",
  "Iterable",
  "JSON",
  "Location",
  "Map",
  "Math",
  "Node",
  "NonNullable",
  "Number",
  "Object",
  "Omit",
  "Option",
  "Parameters",
  "Partial",
  "Pick",
  "Promise",
  "PropertyKey",
  "Proxy",
  "Range",
  "Readonly",
  "Record",
  "Reflect",
  "RegExp",
  "Request",
  "Required",
  "Response",
  "ReturnType",
  "Selection",
  "Set",
  "Storage",
  "String",
  "Symbol",
  "Text",
  "URL",
  "WeakMap",
  "WeakSet",
  "Window",
  "Worker",
]

export const createTypeScope = (): TypeScope => ({
  taken: new Set(GLOBAL_NAMES),
  byKey: new Map(),
  declarations: new Map(),
})

/** `base`, or `base_2`, `base_3`... whichever is free; the name is taken on return. */
export const uniqueName = (scope: TypeScope, base: string): string => {
  let name = base
  for (let n = 2; scope.taken.has(name); n++) name = `${base}_${n}`
  scope.taken.add(name)
  return name
}

/** `get-sum` -> `GetSum`, `user_profile` -> `UserProfile`; "" when nothing usable is left. */
export const pascalCase = (text: string): string => {
  const joined = text
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((part) => part[0]?.toUpperCase() + part.slice(1))
    .join("")
  return /^[0-9]/.test(joined) ? `_${joined}` : joined
}

/** The declarations `names` need, transitively, in scope order. */
export const declarationsFor = (scope: TypeScope, names: Iterable<string>): string[] => {
  const needed = new Set<string>()
  const stack = [...names]
  while (stack.length > 0) {
    const name = stack.pop() as string
    const declaration = scope.declarations.get(name)
    if (!declaration || needed.has(name)) continue
    needed.add(name)
    stack.push(...declaration.uses)
  }
  return [...scope.declarations].filter(([name]) => needed.has(name)).map(([, d]) => d.text)
}
