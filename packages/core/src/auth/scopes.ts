/**
 * What an API key may do (ARCHITECTURE.md: safety). Three scopes, each including the ones below it:
 *   read     the catalog (sources, tools) and the key's own executions
 *   execute  read, plus run scripts and describe tools (a script can already search and describe the catalog
 *            through `tools.$search` / `tools.$describe`, so execute without read would protect nothing)
 *   admin    everything: add, change, sync and remove sources, manage API keys, and every key's executions
 * Keys stored before scopes were checked hold `["*"]`, which counts as admin, so an upgrade takes nothing away
 * and no row is rewritten. Any other value this build does not know grants nothing: a scope added by a later
 * build must not become admin when an older build reads it. New keys are created with known scopes only.
 */
import { InvalidInput, failure, success } from "../errors.js"
import type { Outcome } from "../errors.js"
import type {
  CatalogStore,
  ExecutionListQuery,
  ExecutionListPage,
  StoredExecution,
  StoredResult,
} from "../catalog/rows.js"

export const SCOPES = ["read", "execute", "admin"] as const
export type Scope = (typeof SCOPES)[number]

export const SCOPE_DESCRIPTIONS: Record<Scope, string> = {
  read: "the catalog (sources, tools) and this key's own executions",
  execute: "read, plus run scripts and describe tools",
  admin: "everything: add, change, sync and remove sources, manage API keys, and every key's executions",
}

const rank: Record<Scope, number> = { read: 0, execute: 1, admin: 2 }

const isScope = (value: unknown): value is Scope => typeof value === "string" && Object.hasOwn(rank, value)

/**
 * Who is asking: the key's id and its highest scope. A server without keys (loopback) answers everyone as
 * `OPEN_CALLER`: admin with no key, today's behaviour.
 */
export interface Caller {
  keyId: string | null
  /** null: a stored empty list, which grants nothing */
  scope: Scope | null
}

export const OPEN_CALLER: Caller = Object.freeze({ keyId: null, scope: "admin" })

/**
 * The highest scope a stored `scopes` value grants: the legacy `*` (alone, in a list, or a bare string) is
 * admin; otherwise the known scopes count and anything else grants nothing; an empty list grants nothing.
 */
export const effectiveScope = (stored: unknown): Scope | null => {
  if (stored === "*" || (Array.isArray(stored) && stored.includes("*"))) return "admin"
  if (!Array.isArray(stored)) return null
  return stored
    .filter(isScope)
    .reduce<Scope | null>((best, s) => (best === null || rank[s] > rank[best] ? s : best), null)
}

export const callerOf = (key: { id: string; scopes: unknown }): Caller => ({
  keyId: key.id,
  scope: effectiveScope(key.scopes),
})

export const hasScope = (caller: Caller, needed: Scope) => caller.scope !== null && rank[caller.scope] >= rank[needed]

/** What a refusal says: the scope needed and the scope the key has. */
export const missingScopeMessage = (what: string, needed: Scope, caller: Caller) =>
  `${what} needs the "${needed}" scope; this key has: ${caller.scope ?? "no scope"}`

/**
 * Whether the caller may read an execution made by `ownerKeyId`: admin reads every execution, another key only
 * its own. An execution made without a key (loopback, `switchboard run`) has no owner, so only admin reads it.
 */
export const canReadExecution = (caller: Caller, ownerKeyId: string | null) =>
  caller.scope === "admin" || (caller.keyId !== null && caller.keyId === ownerKeyId)

/** `--scope` values: each may be a comma-separated list; at least one; only the three scopes. */
export const parseScopes = (values: readonly string[]): Outcome<Scope[]> => {
  const scopes = values
    .flatMap((v) => v.split(","))
    .map((s) => s.trim())
    .filter((s) => s !== "")
  const unknown = scopes.filter((s) => !isScope(s))
  if (unknown.length > 0)
    return failure(
      new InvalidInput({
        message: `unknown scope ${unknown.map((s) => JSON.stringify(s)).join(", ")}; the scopes are ${SCOPES.join(", ")}`,
      }),
    )
  if (scopes.length === 0)
    return failure(new InvalidInput({ message: `give at least one scope: ${SCOPES.join(", ")}` }))
  return success([...new Set(scopes)] as Scope[])
}

/**
 * An execution as the caller may see it: null both when there is none and when it is another key's, so a key
 * cannot tell the two apart (no oracle for other keys' execution ids).
 */
export const readExecutionAs = async (
  store: Pick<CatalogStore, "getExecution">,
  caller: Caller,
  id: string,
): Promise<StoredExecution | null> => {
  const execution = await store.getExecution(id)
  return execution && canReadExecution(caller, execution.keyId) ? execution : null
}

/** An execution's stored result as the caller may see it, without its text: null as readExecutionAs answers it. */
export const readResultAs = async (
  store: Pick<CatalogStore, "getResult">,
  caller: Caller,
  id: string,
): Promise<StoredResult | null> => {
  const result = await store.getResult(id)
  return result && canReadExecution(caller, result.keyId) ? result : null
}

/** a listing's size when the caller names none (`GET /v1/executions`, `switchboard executions list`) */
export const DEFAULT_LIST_EXECUTIONS = 20
/** the most executions one page lists */
export const MAX_LIST_EXECUTIONS = 200

/**
 * A page of the executions the caller may read, as canReadExecution decides one by one, as `GET /v1/executions`
 * answers it: admin (a server without keys answers as admin) lists every one, or one key's when the query names
 * it; any other key only its own, whatever the query asked; a caller with neither admin nor a key, none.
 * `nextBefore` is where the next page starts (the store's ExecutionListPage).
 */
export const listExecutionsPage = async (
  store: Pick<CatalogStore, "listExecutions">,
  caller: Caller,
  query: ExecutionListQuery,
): Promise<ExecutionListPage> => {
  if (caller.scope === "admin") return store.listExecutions(query)
  if (caller.keyId === null) return { executions: [] }
  return store.listExecutions({ ...query, keyId: caller.keyId })
}
