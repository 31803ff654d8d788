/**
 * The OAuth rows of a source (`source_auth`, `oauth_clients`, `oauth_states`): what the oauth/ services read and
 * write. Secret columns arrive here sealed (oauth/token-vault.ts) and are stored as they come. Every write that
 * must not be lost to another server is one statement that says what it expects (compare-and-set), so it holds on
 * D1, which runs no transaction around a read.
 */
import { and, eq, isNull, lt, or, sql } from "drizzle-orm"
import { first } from "./chunks.js"
import type { StoreDialect } from "./dialect.js"

export type SourceAuthStatus = "connected" | "expired"
export type ClientAuthMethod = "none" | "client_secret_basic" | "client_secret_post"
export type OAuthGrant = "authorization_code" | "client_credentials"

/** A source's grant as stored: its secret fields sealed. */
export interface SourceAuthRow {
  sourceId: string
  status: SourceAuthStatus
  issuer: string
  /** the authorization server's metadata (RFC 8414) as discovered */
  server: Record<string, unknown>
  resource: string | null
  clientId: string
  clientAuth: ClientAuthMethod
  clientSecret: string | null
  grant: OAuthGrant
  accessToken: string | null
  refreshToken: string | null
  expiresAt: number | null
  scopes: string | null
  generation: number
  refreshLeaseUntil: number | null
  refreshLeaseOwner: string | null
  connectedBy: string | null
  error: string | null
  updatedAt: number
}

/** New tokens for a grant (sealed): what a login, a refresh or a client-credentials grant writes. */
export type SourceAuthTokens = Pick<SourceAuthRow, "accessToken" | "refreshToken" | "expiresAt" | "scopes">

/** A client registered with an authorization server for one source and redirect URI (RFC 7591); secret sealed. */
export interface OAuthClientRow {
  sourceId: string
  issuer: string
  redirectUri: string
  clientId: string
  clientAuth: ClientAuthMethod
  clientSecret: string | null
  createdAt: number
}

/** A login in progress: its id is the SHA-256 of its `state`; the verifier is sealed. */
export interface OAuthStateRow {
  id: string
  sourceId: string
  keyId: string | null
  redirectUri: string
  request: Record<string, unknown>
  codeVerifier: string
  createdAt: number
  expiresAt: number
  usedAt: number | null
}

/** What taking a state found: the row (now used), or why there is none to take. */
export type TakenState = { ok: true; row: OAuthStateRow } | { ok: false; reason: "unknown" | "used" | "expired" }

export interface OAuthRows {
  getSourceAuth(sourceId: string): Promise<SourceAuthRow | null>
  /** every grant, for a listing of sources */
  listSourceAuth(): Promise<SourceAuthRow[]>
  /** A login's grant replaces whatever the source had, its generation one past the old one's. */
  putSourceAuth(row: Omit<SourceAuthRow, "generation" | "refreshLeaseUntil" | "refreshLeaseOwner">): Promise<void>
  /**
   * Takes the refresh of the grant at `generation`, until `leaseUntil`: only while the grant is still at that
   * generation and no other holder's lease runs at `at`. False: another server refreshes it (or did).
   */
  claimRefresh(sourceId: string, generation: number, owner: string, at: number, leaseUntil: number): Promise<boolean>
  /** Stores a refresh's tokens, if `owner` still holds the refresh of `generation`; the generation moves on. */
  completeRefresh(
    sourceId: string,
    generation: number,
    owner: string,
    tokens: SourceAuthTokens,
    at: number,
  ): Promise<boolean>
  /** Gives up a refresh `owner` holds, leaving the tokens as they are (a refresh that could not reach the server). */
  releaseRefresh(sourceId: string, owner: string): Promise<void>
  /** The grant at `generation` is gone for good: its tokens are dropped and `error` says why. */
  expireSourceAuth(sourceId: string, generation: number, error: string, at: number): Promise<boolean>
  /**
   * Drops the source's grant and the logins it has in progress (a PATCH moved its login elsewhere); true when it had
   * a grant. Its registered clients stay: they belong to an authorization server and a redirect URI, not a login.
   */
  dropSourceLogin(sourceId: string): Promise<boolean>
  getOAuthClient(sourceId: string, issuer: string, redirectUri: string): Promise<OAuthClientRow | null>
  /** Keeps the first client registered for (source, issuer, redirect URI): a second server's registration loses. */
  putOAuthClient(row: OAuthClientRow): Promise<OAuthClientRow>
  /** Stores a new state, dropping states that expired a day before `at`. */
  insertOAuthState(row: OAuthStateRow): Promise<void>
  /** Marks the state used, once: a second take of it, or a take past its expiry, finds nothing to take. */
  takeOAuthState(id: string, at: number): Promise<TakenState>
}

/** states that expired longer ago than this are deleted with the next login */
const STALE_STATE_MS = 24 * 60 * 60_000

export const oauthRows = ({ db, tables }: StoreDialect): OAuthRows => {
  const { sourceAuth, oauthClients, oauthStates } = tables
  const toAuthRow = (row: typeof sourceAuth.$inferSelect): SourceAuthRow => ({
    ...row,
    status: row.status as SourceAuthStatus,
    server: row.server as Record<string, unknown>,
    clientAuth: row.clientAuth as ClientAuthMethod,
    grant: row.grant as OAuthGrant,
  })
  const toClientRow = (row: typeof oauthClients.$inferSelect): OAuthClientRow => ({
    ...row,
    clientAuth: row.clientAuth as ClientAuthMethod,
  })
  const atGeneration = (sourceId: string, generation: number) =>
    and(eq(sourceAuth.sourceId, sourceId), eq(sourceAuth.generation, generation))

  const getOAuthClient = async (sourceId: string, issuer: string, redirectUri: string) => {
    const row = first(
      await db
        .select()
        .from(oauthClients)
        .where(
          and(
            eq(oauthClients.sourceId, sourceId),
            eq(oauthClients.issuer, issuer),
            eq(oauthClients.redirectUri, redirectUri),
          ),
        )
        .limit(1),
    )
    return row ? toClientRow(row) : null
  }

  return {
    async getSourceAuth(sourceId) {
      const row = first(await db.select().from(sourceAuth).where(eq(sourceAuth.sourceId, sourceId)).limit(1))
      return row ? toAuthRow(row) : null
    },

    async listSourceAuth() {
      return (await db.select().from(sourceAuth)).map(toAuthRow)
    },

    async putSourceAuth(row) {
      const { sourceId, ...rest } = row
      const fresh = { ...rest, refreshLeaseUntil: null, refreshLeaseOwner: null }
      await db
        .insert(sourceAuth)
        .values({ sourceId, ...fresh, generation: 1 })
        .onConflictDoUpdate({
          target: sourceAuth.sourceId,
          set: { ...fresh, generation: sql`${sourceAuth.generation} + 1` },
        })
    },

    async claimRefresh(sourceId, generation, owner, at, leaseUntil) {
      const claimed = await db
        .update(sourceAuth)
        .set({ refreshLeaseUntil: leaseUntil, refreshLeaseOwner: owner })
        .where(
          and(
            atGeneration(sourceId, generation),
            eq(sourceAuth.status, "connected"),
            or(isNull(sourceAuth.refreshLeaseUntil), lt(sourceAuth.refreshLeaseUntil, at)),
          ),
        )
        .returning({ sourceId: sourceAuth.sourceId })
      return claimed.length > 0
    },

    async completeRefresh(sourceId, generation, owner, tokens, at) {
      const done = await db
        .update(sourceAuth)
        .set({
          ...tokens,
          generation: generation + 1,
          refreshLeaseUntil: null,
          refreshLeaseOwner: null,
          error: null,
          updatedAt: at,
        })
        .where(and(atGeneration(sourceId, generation), eq(sourceAuth.refreshLeaseOwner, owner)))
        .returning({ sourceId: sourceAuth.sourceId })
      return done.length > 0
    },

    async releaseRefresh(sourceId, owner) {
      await db
        .update(sourceAuth)
        .set({ refreshLeaseUntil: null, refreshLeaseOwner: null })
        .where(and(eq(sourceAuth.sourceId, sourceId), eq(sourceAuth.refreshLeaseOwner, owner)))
    },

    async expireSourceAuth(sourceId, generation, error, at) {
      const expired = await db
        .update(sourceAuth)
        .set({
          status: "expired",
          accessToken: null,
          refreshToken: null,
          expiresAt: null,
          generation: generation + 1,
          refreshLeaseUntil: null,
          refreshLeaseOwner: null,
          error,
          updatedAt: at,
        })
        .where(atGeneration(sourceId, generation))
        .returning({ sourceId: sourceAuth.sourceId })
      return expired.length > 0
    },

    async dropSourceLogin(sourceId) {
      const dropped = await db
        .delete(sourceAuth)
        .where(eq(sourceAuth.sourceId, sourceId))
        .returning({ sourceId: sourceAuth.sourceId })
      await db.delete(oauthStates).where(eq(oauthStates.sourceId, sourceId))
      return dropped.length > 0
    },

    getOAuthClient,

    async putOAuthClient(row) {
      await db.insert(oauthClients).values(row).onConflictDoNothing()
      return (await getOAuthClient(row.sourceId, row.issuer, row.redirectUri)) ?? row
    },

    async insertOAuthState(row) {
      await db.delete(oauthStates).where(lt(oauthStates.expiresAt, row.createdAt - STALE_STATE_MS))
      await db.insert(oauthStates).values(row)
    },

    async takeOAuthState(id, at) {
      const taken = first(
        await db
          .update(oauthStates)
          .set({ usedAt: at })
          .where(and(eq(oauthStates.id, id), isNull(oauthStates.usedAt)))
          .returning(),
      )
      if (!taken) {
        const seen = first(await db.select({ id: oauthStates.id }).from(oauthStates).where(eq(oauthStates.id, id)))
        return { ok: false, reason: seen ? "used" : "unknown" }
      }
      if (taken.expiresAt < at) return { ok: false, reason: "expired" }
      return { ok: true, row: { ...taken, request: taken.request as Record<string, unknown> } }
    },
  }
}
