/**
 * The credentials core gives a plugin for a source (the SourceCredentials seam): the access token, refreshed a
 * minute before it expires and once when the source answers 401 to it.
 *
 * A refresh is one server's at a time, for every server of the catalog: it is claimed compare-and-set on the
 * grant's generation with a 30 s lease (`claimRefresh`), the refresh token is spent by the claimer alone, and its
 * answer is stored only while the claim holds (`completeRefresh`), moving the generation on. A server that finds the
 * refresh claimed waits for the next generation and uses those tokens: a rotating refresh token is never presented
 * twice. A claimer that dies mid-refresh leaves its lease to run out; if it had spent the refresh token, the next
 * refresh is refused and the grant expires (`auth_expired`): a new login, never a replay.
 *
 * A refresh the authorization server refuses (`invalid_grant`: revoked, expired, rotated elsewhere) expires the
 * grant. One that could not reach it leaves the tokens as they were and answers `upstream_unavailable`.
 * Client credentials (machine to machine) need no person: a token is asked for whenever the last one is gone.
 */
import type { CatalogStore } from "../catalog/rows.js"
import type { SourceAuthRow } from "../catalog/oauth-rows.js"
import type { CredentialAnswer, CredentialSubject, SourceCredentials } from "../seams.js"
import { ToolErrorCodes } from "../result.js"
import type { Logger } from "../errors.js"
import type { OAuthFetch } from "./http.js"
import { grantTokens } from "./login.js"
import type { TokenVault } from "./token-vault.js"
import { loginHint } from "./login-hint.js"
import {
  authExpired,
  authRequired,
  clientCredentialsGrant,
  storeDraft,
  tokenRequest,
  unreachable,
} from "./grant-requests.js"
import type { GrantDraft } from "./grant-requests.js"
import { parseBearerChallenge } from "./www-authenticate.js"

/** a token this close to its expiry is refreshed before it is used */
export const REFRESH_BEFORE_MS = 60_000
/** how long a claimed refresh is the claimer's */
export const REFRESH_LEASE_MS = 30_000
const WAIT_STEP_MS = 100
/** how long a grant got for a source not stored yet is kept for it: an add or a PATCH stores it within moments */
const UNSAVED_KEPT_MS = 10 * 60_000

export interface CredentialsDeps {
  store: CatalogStore
  vault: TokenVault
  fetch: OAuthFetch
  now: () => number
  logger: Logger
  /** waits between reads of a grant another server is refreshing (tests pass their own) */
  sleep?: (ms: number) => Promise<void>
}

/** what this server last handed out for a source: a token, or `null` for a source with no login (nothing to send) */
interface CachedToken {
  generation: number
  header: string | null
  expiresAt: number | null
}

export interface Credentials extends SourceCredentials {
  forget(sourceId: string): void
  keepFirstGrant(discoveredAs: string, sourceId: string): Promise<void>
}

export const createCredentials = (deps: CredentialsDeps): Credentials => {
  const { store, vault, now, logger } = deps
  const sleep = deps.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)))
  const cache = new Map<string, CachedToken>()
  /** client-credentials grants got for a source not stored yet, by the id it was discovered as */
  const unsaved = new Map<string, GrantDraft>()
  const fresh = (expiresAt: number | null) => expiresAt === null || expiresAt - now() > REFRESH_BEFORE_MS

  /**
   * the grant's access token as a header, when it is there and not about to expire; `justRefreshed`: another
   * server's refresh made it, and it is used while it has not expired at all (a token that lives less than the
   * margin would otherwise be refreshed by every waiter in turn)
   */
  const usable = async (row: SourceAuthRow, justRefreshed = false): Promise<string | null> => {
    const live = justRefreshed ? row.expiresAt === null || row.expiresAt > now() : fresh(row.expiresAt)
    if (row.status !== "connected" || !live) return null
    const token = await vault.open(row.sourceId, "access_token", row.accessToken)
    if (!token) return null
    const header = `Bearer ${token}`
    cache.set(row.sourceId, { generation: row.generation, header, expiresAt: row.expiresAt })
    return header
  }

  const expire = async (subject: CredentialSubject, row: SourceAuthRow, why: string) => {
    cache.delete(subject.id)
    await store.expireSourceAuth(row.sourceId, row.generation, why, now())
    logger.warn("an OAuth grant expired; the source needs a new login", { namespace: subject.namespace, reason: why })
    return authExpired(subject.namespace, why)
  }

  /** Refreshes the grant at `row`'s generation, or waits for the server that is doing it. */
  const refresh = async (subject: CredentialSubject, row: SourceAuthRow): Promise<CredentialAnswer> => {
    const refreshToken = await vault.open(row.sourceId, "refresh_token", row.refreshToken)
    if (refreshToken === null && row.grant !== "client_credentials")
      return expire(subject, row, "the access token ran out and the server gave no refresh token")
    const owner = crypto.randomUUID()
    const claimed = await store.claimRefresh(row.sourceId, row.generation, owner, now(), now() + REFRESH_LEASE_MS)
    if (!claimed) return waitForRefresh(subject, row)
    const result = await tokenRequest(deps, subject, row, refreshToken)
    if ("gone" in result) return expire(subject, row, result.gone)
    if ("failed" in result) {
      await store.releaseRefresh(row.sourceId, owner)
      return unreachable(result.failed)
    }
    const at = now()
    const tokens = await grantTokens(vault, row.sourceId, result.tokens, at, {
      refreshToken: result.tokens.refresh_token ? undefined : refreshToken,
      scope: row.scopes,
    })
    if (!(await store.completeRefresh(row.sourceId, row.generation, owner, tokens, at)))
      // the lease ran out and another server took over: its tokens are the ones stored
      return waitForRefresh(subject, row)
    const header = `Bearer ${result.tokens.access_token}`
    cache.set(row.sourceId, { generation: row.generation + 1, header, expiresAt: tokens.expiresAt })
    return { ok: true, authorization: header }
  }

  /** Another server holds the refresh of `seen`'s generation: reads the grant until it moves on, or the lease lapses. */
  const waitForRefresh = async (subject: CredentialSubject, seen: SourceAuthRow): Promise<CredentialAnswer> => {
    const until = now() + REFRESH_LEASE_MS + WAIT_STEP_MS
    while (now() < until) {
      await sleep(WAIT_STEP_MS)
      const row = await store.getSourceAuth(subject.id)
      if (!row) return authRequired(subject.namespace)
      if (row.status === "expired") return authExpired(subject.namespace, row.error)
      if (row.generation !== seen.generation) {
        const header = await usable(row, true)
        if (header) return { ok: true, authorization: header }
        return refresh(subject, row)
      }
      // its holder is gone: take it over
      if (row.refreshLeaseUntil === null || row.refreshLeaseUntil < now()) return refresh(subject, row)
    }
    return {
      ok: false,
      code: ToolErrorCodes.upstreamUnavailable,
      message: `the refresh of "${subject.namespace}" took too long`,
    }
  }

  /**
   * A client-credentials source's first token, stored as its grant. A source being added or tried by a PATCH is not
   * stored (yet) under the id it is discovered as: its grant is kept here, for `keepFirstGrant` to store once it is.
   */
  const firstClientCredentials = async (subject: CredentialSubject): Promise<CredentialAnswer> => {
    const first = await clientCredentialsGrant(deps, subject)
    if (!first.ok) return first
    const expiresAt = await storeDraft(deps, subject.id, first.draft).then(
      (tokens) => tokens.expiresAt,
      () => {
        unsaved.set(subject.id, first.draft)
        return typeof first.draft.tokens.expires_in === "number"
          ? first.draft.at + first.draft.tokens.expires_in * 1000
          : null
      },
    )
    cache.set(subject.id, { generation: 0, header: first.authorization, expiresAt })
    return { ok: true, authorization: first.authorization }
  }

  const current = async (subject: CredentialSubject): Promise<CredentialAnswer> => {
    const row = await store.getSourceAuth(subject.id)
    if (!row) {
      if (subject.oauth.settings.grant === "client_credentials") return firstClientCredentials(subject)
      // no login yet: nothing to send, until the source answers 401 (another server's login is found then)
      cache.set(subject.id, { generation: 0, header: null, expiresAt: null })
      return { ok: true, authorization: null }
    }
    if (row.status === "expired") return authExpired(subject.namespace, row.error)
    const header = await usable(row)
    return header ? { ok: true, authorization: header } : refresh(subject, row)
  }

  return {
    /** drops what this server handed out for the source (a login made here): the next request reads the grant */
    forget: (sourceId) => void cache.delete(sourceId),

    /**
     * Stores as `sourceId`'s grant the client-credentials token got while it was discovered as `discoveredAs` (an
     * add, before its source was stored; a PATCH's trial), so the source is listed with the token it has. Nothing
     * when there is none.
     */
    async keepFirstGrant(discoveredAs, sourceId) {
      const now = deps.now()
      for (const [id, draft] of unsaved) if (now - draft.at > UNSAVED_KEPT_MS) unsaved.delete(id)
      const draft = unsaved.get(discoveredAs)
      if (!draft) return
      unsaved.delete(discoveredAs)
      if (discoveredAs !== sourceId) cache.delete(discoveredAs)
      await storeDraft(deps, sourceId, draft)
    },

    async authorization(subject) {
      const cached = cache.get(subject.id)
      if (cached && (cached.header === null || fresh(cached.expiresAt)))
        return { ok: true, authorization: cached.header }
      return current(subject)
    },

    async rejected(subject, sent, challenge) {
      const cached = cache.get(subject.id)
      const row = await store.getSourceAuth(subject.id)
      if (!row) {
        cache.delete(subject.id)
        if (subject.oauth.settings.grant === "client_credentials") return firstClientCredentials(subject)
        // a login is asked for by the source's challenge naming its metadata (RFC 9728 §5.1), or by its settings;
        // any other 401 (a static key that is wrong) is the source's answer, left to the caller as it is
        const asked = parseBearerChallenge(challenge)?.resourceMetadata !== undefined
        if (!asked && Object.keys(subject.oauth.settings).length === 0) return { ok: true, authorization: sent }
        return authRequired(subject.namespace)
      }
      if (row.status === "expired") return authExpired(subject.namespace, row.error)
      // the grant moved on since the refused token was handed out (another login, another server's refresh): use it
      if (cached?.header !== sent || cached?.generation !== row.generation) {
        const header = await usable(row)
        if (header && header !== sent) return { ok: true, authorization: header }
      }
      if (challenge?.includes("insufficient_scope"))
        return {
          ok: false,
          code: ToolErrorCodes.authRequired,
          authRequired: "auth_required",
          message: `source "${subject.namespace}" asks for more scope than its login granted: ${loginHint(subject.namespace)}`,
        }
      cache.delete(subject.id)
      return refresh(subject, row)
    },
  }
}
