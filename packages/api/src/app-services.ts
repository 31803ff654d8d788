/** What a host hands the app: the services every route is built from. */
import { Effect } from "effect"
import { Services } from "@switchboard/core"
import type {
  ApiKeyService,
  ApprovalsService,
  CatalogStore,
  Executor,
  GrepRunner,
  Logger,
  PolicyService,
  SourcesService,
} from "@switchboard/core"

export interface AppServices {
  sources: SourcesService
  executor: Executor
  /** the policy rules (/v1/policies; describe shows each tool's) */
  policies: PolicyService
  /** paused calls and their resumes (/v1/approvals, the MCP `resume` tool) */
  approvals: ApprovalsService
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

/** The app's services from a host's layer: core's service tags, read once when the host is built. */
export const appServices = Effect.gen(function* () {
  return {
    keys: yield* Services.ApiKeys,
    store: yield* Services.CatalogStore,
    sources: yield* Services.Sources,
    executor: yield* Services.Executor,
    policies: yield* Services.Policies,
    approvals: yield* Services.Approvals,
    logger: yield* Services.Logger,
  }
})
