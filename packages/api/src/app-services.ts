/** What a host hands the app: the services every route is built from. */
import { Effect, Option } from "effect"
import { Services } from "@switchboard/core"
import type * as Sources from "@switchboard/core/sources"
import type * as Executor from "@switchboard/core/executor"
import type * as Policy from "@switchboard/core/policy"
import type * as Approvals from "@switchboard/core/approvals"
import type * as Render from "@switchboard/core/render"
import type * as Auth from "@switchboard/core/auth"
import type * as OAuth from "@switchboard/core/oauth"
import type { CatalogStore, Logger, SourcePlugin } from "@switchboard/core"

export interface AppServices {
  sources: Sources.SourcesService
  executor: Executor.Executor
  /** the policy rules (/v1/policies; describe shows each tool's) */
  policies: Policy.PolicyService
  /** paused calls and their resumes (/v1/approvals, the MCP `resume` tool) */
  approvals: Approvals.ApprovalsService
  store: CatalogStore
  logger: Logger
  /**
   * When set, every route but /healthz and /readyz needs a valid API key, and each route a scope of it
   * (./scopes.ts); and /v1/keys creates, lists and revokes keys (./routes/keys.ts). Unset: no key is checked, and
   * /v1/keys refuses.
   */
  keys?: Pick<Auth.ApiKeyService, "verify" | "create" | "list" | "revoke">
  /** where searches of stored output run (default: in place; the Node host gives a worker thread it can stop) */
  grep?: Render.GrepRunner
  /** OAuth for sources (the login routes and the callback); a host without it answers that it does not log in */
  oauth?: OAuth.OAuthService
  /** the plugins, whose `oauth` says which sources log in */
  plugins?: readonly SourcePlugin[]
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
    oauth: Option.getOrUndefined(yield* Effect.serviceOption(Services.OAuth)),
    plugins: yield* Services.SourcePlugins,
  }
})
