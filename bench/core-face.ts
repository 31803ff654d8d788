/**
 * A name of @switchboard/core in either of its layouts, namespaced (`Catalog.createSqliteCatalogStore`) or flat
 * (`createSqliteCatalogStore`): an A/B bench loads the other tree's core, which may be older than this one.
 */
export const coreName = <T>(core: object, namespace: string, name: string): T => {
  const spaced = (core as Record<string, Record<string, unknown> | undefined>)[namespace]?.[name]
  const found = spaced ?? (core as Record<string, unknown>)[name]
  if (found === undefined) throw new Error(`@switchboard/core has neither ${namespace}.${name} nor ${name}`)
  return found as T
}
