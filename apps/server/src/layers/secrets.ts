/**
 * The secret box that seals source secrets at rest, and the catalog store every part of the host reads through:
 * plaintext in memory, sealed in the database. Plaintext an older build stored is sealed when the store is made.
 */
import { Context, Effect, Layer } from "effect"
import * as Secrets from "@switchboard/core/secrets"
import { Services } from "@switchboard/core"
import { loadSecretKey } from "../database/secret-key.js"
import { CatalogDatabase } from "./database.js"
import { startStep } from "./start-failed.js"

export class SecretBox extends Context.Service<SecretBox, Secrets.SecretBox & { origin: string }>()(
  "@switchboard/server/SecretBox",
) {
  /** A malformed key, or a Postgres catalog without one, fails here: before anything is opened. */
  static readonly make = (db: string, secretKey: string | undefined) =>
    Effect.gen(function* () {
      const logger = yield* Services.Logger
      const loaded = yield* startStep("load the secret key", () => loadSecretKey(db, secretKey))
      if (loaded.created)
        logger.info(
          "created the key that encrypts source secrets; keep it with the database (losing it makes their secrets unreadable)",
          { keyFile: loaded.created },
        )
      const box = yield* startStep("make the secret box", () => Secrets.createSecretBox(loaded.key))
      return { ...box, origin: loaded.origin }
    })
  static readonly layer = (db: string, secretKey: string | undefined) =>
    Layer.effect(SecretBox, SecretBox.make(db, secretKey))
}

/** core's CatalogStore on the Node host: the database's store behind the secret box. */
export const sealedCatalogLayer = Layer.effect(
  Services.CatalogStore,
  Effect.gen(function* () {
    const database = yield* CatalogDatabase
    const box = yield* SecretBox
    const plugins = yield* Services.SourcePlugins
    const logger = yield* Services.Logger
    const store = Secrets.createSealedCatalogStore({ store: database.store, box, plugins })
    const { sealed, unreadable } = yield* startStep("seal stored secrets", () => store.sealStoredSecrets())
    if (sealed.length > 0) {
      database.checkpoint?.()
      logger.info("encrypted the secrets an older build stored in plaintext", { sources: sealed })
    }
    if (unreadable.length > 0)
      logger.warn(
        `the secrets of ${unreadable.length} source(s) cannot be decrypted with this server's key (${box.origin}, key id ${box.keyId}); ` +
          "their calls fail with source_secrets_unreadable until new secrets are sent with PATCH /v1/sources/<namespace> or the old key is restored",
        { sources: unreadable.map((u) => u.namespace) },
      )
    return store
  }),
)
