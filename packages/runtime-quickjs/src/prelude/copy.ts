/**
 * A JSON copy of a value, so the host never holds a reference into the sandbox. Without one (undefined, a
 * function, a symbol, a BigInt, a cycle, a throwing toJSON) `reason` says why. `stringify` is the
 * JSON.stringify the host captured before any script ran, so a script that replaces JSON cannot change
 * what crosses the bridge. Inlined by the bundler into each piece that uses it.
 */
export const copy = (stringify: typeof JSON.stringify, value: unknown): [json: string | undefined, reason: string] => {
  try {
    const json = stringify(value)
    return [json, json === undefined ? `got ${typeof value}` : ""]
  } catch (error) {
    return [undefined, (error as Error).message]
  }
}
