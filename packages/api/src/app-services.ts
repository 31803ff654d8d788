/** What a host hands the app: the services every route is built from. */
import type { ApiKeyService, CatalogStore, Executor, GrepRunner, Logger, SourcesService } from "@switchboard/core"

export interface AppServices {
  sources: SourcesService
  executor: Executor
  store: CatalogStore
  logger: Logger
  /**
   * When set, every route but /healthz and /readyz needs a valid API key, and each route a scope of it
   * (./scopes.ts); and /v1/keys creates, lists and revokes keys (./routes/keys.ts). Unset: no key is checked, and
   * /v1/keys refuses.
   */
  keys?: Pick<ApiKeyService, "verify" | "create" | "list" | "revoke">
  /** where searches of stored output run (default: in place; the Node host gives a worker thread it can stop) */
  grep?: GrepRunner
}
