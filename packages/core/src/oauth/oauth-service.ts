/**
 * OAuth for sources, as one service: the credentials plugins ask for (./credentials.ts), and the logins people make
 * (./login.ts) through `POST /v1/sources/:namespace/login`, the server's callback, and the CLI. A login's failures
 * are core's typed errors: a refused address is `SourceRefused` (403 `private_address`), a state that is unknown,
 * used or expired or a client that is missing is `InvalidInput` (400), anything the authorization server did is
 * `UpstreamFailed` (502). A completed login syncs the source, so its tools are there at once.
 *
 * Built from the catalog as the database has it (the oauth rows hold sealed values and are read and written only
 * here), the host's secret box and its egress fetch: a host makes it before its plugins, which take its
 * `credentials`, and reads sources through the sealed store for the logins (`forSources`).
 */
import { Effect } from "effect"
import type { CatalogStore, SourceRow } from "../catalog/rows.js"
import { InvalidInput, NotFound, SourceRefused, UpstreamFailed, internalError } from "../errors.js"
import type { Internal, Logger } from "../errors.js"
import type { SecretBox } from "../secrets/secret-box.js"
import { SourceRefusalCodes } from "../seams.js"
import type { OAuthSource, SourceCredentials, SourcePlugin } from "../seams.js"
import { resolveClient } from "./client-identity.js"
import { createCredentials } from "./credentials.js"
import { OAuthFailure, isOAuthFailure } from "./failure.js"
import { oauthFetch } from "./http.js"
import { beginLogin, completeLogin } from "./login.js"
import type { CompletedLogin, LoginStart } from "./login.js"
import { createTokenVault } from "./token-vault.js"
import { authViewOf } from "./auth-view.js"
import type { SourceAuthView } from "./auth-view.js"

export interface OAuthServiceOptions {
  /** the catalog as the database holds it: the oauth rows are sealed by this service itself */
  store: CatalogStore
  box: SecretBox
  /** the host's egress fetch (the guard that refuses private addresses); the global fetch when absent */
  fetch?: typeof fetch
  logger: Logger
  now?: () => number
}

/** A login's failure as the API answers it. */
export const loginError = (failure: OAuthFailure) => {
  if (failure.code === "private_address")
    return new SourceRefused({ message: failure.message, code: SourceRefusalCodes.privateAddress })
  if (failure.code === "bad_callback" || failure.code === "no_client" || failure.code === "not_declared")
    return new InvalidInput({ message: failure.message })
  return new UpstreamFailed({ message: `login failed: ${failure.message}`, retryable: failure.code === "unreachable" })
}

/** What the sources service (sources/) asks of OAuth: the first token of a source it stored, a login it dropped. */
export interface SourceLogins {
  /** the client-credentials grant got while the source was discovered as `discoveredAs`, stored as `sourceId`'s */
  keepFirstGrant(discoveredAs: string, sourceId: string): Promise<void>
  /** drops the source's login (its grant, and any login in progress); true when it had a grant */
  drop(sourceId: string): Promise<boolean>
}

export const createOAuthService = (options: OAuthServiceOptions) => {
  const { store, logger } = options
  const now = options.now ?? Date.now
  const vault = createTokenVault(options.box)
  const deps = { store, vault, fetch: oauthFetch(options.fetch), now }
  const credentials = createCredentials({ ...deps, logger })

  /** A login step's rejection: OAuth's failures as typed errors, anything else our defect. */
  const step = <A>(
    where: string,
    run: () => Promise<A>,
  ): Effect.Effect<A, InvalidInput | SourceRefused | UpstreamFailed | Internal> =>
    Effect.tryPromise({
      try: run,
      catch: (cause) => (isOAuthFailure(cause) ? loginError(cause) : internalError(logger, where, cause)),
    })

  /**
   * The logins, over the sources as the sealed store reads them (plaintext settings) and their plugins; `sync`
   * re-syncs a source once its login completed.
   */
  const forSources = (sources: {
    store: Pick<CatalogStore, "getSource">
    plugins: readonly SourcePlugin[]
    sync: (namespace: string) => Promise<unknown>
  }) => {
    const oauthOf = (row: SourceRow): OAuthSource | null =>
      sources.plugins.find((p) => p.kind === row.kind)?.oauth?.(row.config) ?? null

    const loginSource = Effect.fnUntraced(function* (namespace: string) {
      const row = yield* step("read source", () => sources.store.getSource(namespace))
      if (!row) return yield* new NotFound({ message: `no source with namespace "${namespace}"` })
      const described = oauthOf(row)
      if (!described)
        return yield* new InvalidInput({
          message:
            `source "${namespace}" does not log in with OAuth: an mcp source does when it is http without a fixed ` +
            "authorization header (remove transport.headers.authorization to let it log in)",
        })
      if (row.secretsError) return yield* new InvalidInput({ message: row.secretsError })
      if (described.settings.grant === "client_credentials")
        return yield* new InvalidInput({
          message:
            `source "${namespace}" logs in by itself with the client credentials grant: no person's login is needed ` +
            `(\`switchboard sources sync ${namespace}\` asks for a token now)`,
        })
      return { row, oauth: described }
    })

    return {
      /** `POST /v1/sources/:namespace/login`, and the CLI's: the URL a person opens, and when it stops working. */
      begin: Effect.fnUntraced(function* (namespace: string, request: { redirectUri: string; keyId: string | null }) {
        const { row, oauth } = yield* loginSource(namespace)
        const started: LoginStart = yield* step("begin login", () =>
          beginLogin(deps, { sourceId: row.id, namespace, oauth }, request),
        )
        logger.info("OAuth login begun", { namespace, by: request.keyId ?? "no key" })
        return started
      }),

      /** The callback: finishes the login its `state` names, then syncs the source. */
      complete: Effect.fnUntraced(function* (callback: URLSearchParams) {
        const done: CompletedLogin = yield* step("complete login", () =>
          completeLogin(deps, callback, async (sourceId, request) => {
            const row = await sources.store.getSource(request.namespace)
            const settings = row && row.id === sourceId ? oauthOf(row)?.settings : undefined
            if (!row || row.id !== sourceId || !settings)
              throw new OAuthFailure({
                code: "bad_callback",
                message: `the source of this login ("${request.namespace}") is gone`,
              })
            return resolveClient(deps, {
              sourceId,
              settings,
              issuer: request.issuer,
              server: request.server,
              redirectUri: request.redirectUri,
              scopes: [],
            })
          }),
        )
        credentials.forget(done.sourceId)
        logger.info("OAuth login completed", { namespace: done.namespace, scopes: done.scopes ?? "" })
        const synced = yield* Effect.promise(() =>
          sources.sync(done.namespace).then(
            () => null,
            (cause: unknown) => (cause instanceof Error ? cause.message : String(cause)),
          ),
        )
        return { ...done, syncError: synced }
      }),
    }
  }

  /** What the sources service asks of OAuth when a source is added or changed. */
  const logins: SourceLogins = {
    keepFirstGrant: credentials.keepFirstGrant,
    async drop(sourceId) {
      const had = await store.dropSourceLogin(sourceId)
      credentials.forget(sourceId)
      return had
    },
  }

  return {
    credentials: credentials as SourceCredentials,
    logins,
    forSources,
    /** what a source's view shows of its grant */
    async view(sourceId: string): Promise<SourceAuthView> {
      return authViewOf(await store.getSourceAuth(sourceId))
    },
  }
}

export type OAuthService = ReturnType<typeof createOAuthService>
