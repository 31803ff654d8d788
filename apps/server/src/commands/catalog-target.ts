/** The catalog commands' client for the flags given (./catalog-place.ts), and how a command's work on it ends. */
import type { CatalogClient } from "../catalog-client/catalog-client.js"
import { openLocalClient } from "../catalog-client/local-client.js"
import { openRemoteClient } from "../catalog-client/remote-client.js"
import { stdioAllowance } from "../flags/stdio-flags.js"
import { catalogTarget, withClient } from "./catalog-place.js"
import type { TargetValues } from "./catalog-place.js"

export { asLine, printJson } from "./catalog-place.js"

export const openCatalogClient = (values: TargetValues): CatalogClient => {
  const target = catalogTarget(values)
  return target.kind === "local"
    ? openLocalClient(target.db, { allowStdio: stdioAllowance(values) })
    : openRemoteClient(target.url)
}

/** Runs a command's work against the catalog the flags name, and answers the exit code it returns. */
export const withCatalog = async (values: TargetValues, work: (client: CatalogClient) => Promise<number>) => {
  const done = await withClient(openCatalogClient(values), work)
  return done.ok ? done.value : done.code
}
