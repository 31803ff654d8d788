/** The catalog's database as a scoped resource: opened when the host's layer is built, closed when it is released. */
import { Context, Effect, Layer } from "effect"
import { openCatalogDatabase } from "../database/catalog-database.js"
import { startStep } from "./start-failed.js"
import type { CatalogDatabase as CatalogDatabaseShape, CatalogDatabaseOptions } from "../database/catalog-database.js"

export class CatalogDatabase extends Context.Service<CatalogDatabase, CatalogDatabaseShape>()(
  "@switchboard/server/CatalogDatabase",
) {
  /** `db`: a SQLite file path or a postgres:// URL; a failure to open (migrations, a locked file) fails the layer */
  static readonly make = (db: string, options: CatalogDatabaseOptions = {}) =>
    Effect.acquireRelease(
      startStep("open the catalog database", () => openCatalogDatabase(db, options)),
      (database) => Effect.promise(() => database.close()),
    )
  static readonly layer = (db: string, options: CatalogDatabaseOptions = {}) =>
    Layer.effect(CatalogDatabase, CatalogDatabase.make(db, options))
}
