/**
 * Tool names: an operation's `operationId` as written; without one, `<method>_<path>` with every run of other
 * characters than letters and digits made `_` (`get_pets_petId`). A name already taken gets `_2`, `_3`...; the
 * operations with an id are named first, in document order, so the same spec always gives the same names.
 */
export interface Named {
  operationId: string | undefined
  method: string
  path: string
}

const derivedName = ({ method, path }: Named) =>
  `${method}_${path}`.replace(/[^A-Za-z0-9]+/g, "_").replace(/^_+|_+$/g, "")

export const toolNames = (operations: readonly Named[]): string[] => {
  const names: string[] = new Array(operations.length)
  const taken = new Set<string>()
  const claim = (base: string) => {
    let name = base
    for (let n = 2; taken.has(name); n++) name = `${base}_${n}`
    taken.add(name)
    return name
  }
  operations.forEach((op, index) => {
    if (op.operationId) names[index] = claim(op.operationId)
  })
  operations.forEach((op, index) => {
    if (!op.operationId) names[index] = claim(derivedName(op))
  })
  return names
}
