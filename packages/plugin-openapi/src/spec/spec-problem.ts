/**
 * What is wrong with a spec, and where: `where` is the place in the document (`paths./pets/{id}.get.parameters[1]`),
 * so the person who added the source can find it. A tagged error thrown while a spec compiles and turned into a
 * discovery failure at the plugin's edge: no tool of a spec that does not compile reaches the catalog.
 */
export class SpecProblem extends Error {
  readonly _tag = "SpecProblem"
  constructor(
    readonly where: string,
    readonly problem: string,
  ) {
    super(where ? `${where}: ${problem}` : problem)
  }
}

export const isSpecProblem = (value: unknown): value is SpecProblem =>
  typeof value === "object" && value !== null && (value as { _tag?: unknown })._tag === "SpecProblem"

/** `paths` + `/pets/{id}` + `get` → `paths./pets/{id}.get`; an index → `parameters[1]`. */
export const at = (where: string, key: string | number): string =>
  typeof key === "number" ? `${where}[${key}]` : where ? `${where}.${key}` : key
