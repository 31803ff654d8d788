/**
 * The policy rules a server enforces: read from the store, cached briefly for the per-call path, and changed
 * through the API or the config file. Servers that share a catalog see one another's changes within
 * `refreshMs` (default 2 s); this server's own at once.
 */
import { InvalidInput, NotFound, failure, success } from "../errors.js"
import type { Outcome } from "../errors.js"
import type { CatalogStore, PolicyRow } from "../catalog/rows.js"
import { timeOrderedId } from "../ids.js"
import { parseRequest } from "../request-schemas.js"
import { effectivePolicy } from "./policy.js"
import type { EffectivePolicy, PolicySubject } from "./policy.js"
import { policyRequest } from "./policy-request.js"
import type { PolicyRequest } from "./policy-request.js"

export interface PolicyServiceOptions {
  store: Pick<CatalogStore, "listPolicies" | "insertPolicy" | "deletePolicy" | "replaceConfigPolicies">
  /** false: approvals are off (trusted local use); what would need one is allowed, `block` still blocks */
  approvals?: boolean
  refreshMs?: number
  now?: () => number
}

export const DEFAULT_POLICY_REFRESH_MS = 2_000

const toRow = (request: PolicyRequest, origin: PolicyRow["origin"], at: number): PolicyRow => ({
  id: timeOrderedId(),
  pattern: request.pattern ?? null,
  source: request.source ?? null,
  annotation: request.annotation ?? null,
  action: request.action,
  reason: request.reason ?? null,
  origin,
  createdAt: at,
})

export const createPolicyService = ({
  store,
  approvals = true,
  refreshMs = DEFAULT_POLICY_REFRESH_MS,
  now = Date.now,
}: PolicyServiceOptions) => {
  let cached: { rules: readonly PolicyRow[]; at: number } | undefined
  let loading: Promise<readonly PolicyRow[]> | undefined

  const load = () => {
    loading ??= store.listPolicies().then(
      (rules) => {
        cached = { rules, at: now() }
        loading = undefined
        return rules
      },
      (cause: unknown) => {
        loading = undefined
        throw cause
      },
    )
    return loading
  }

  /** The rules, from the cache when it is fresh: the per-call path awaits nothing then. */
  const fresh = (): readonly PolicyRow[] | undefined =>
    cached && now() - cached.at < refreshMs ? cached.rules : undefined

  const rules = async (): Promise<readonly PolicyRow[]> => fresh() ?? load()

  const decide = async (subject: PolicySubject): Promise<EffectivePolicy> =>
    effectivePolicy(fresh() ?? (await load()), subject, { approvals })

  const add = async (body: unknown): Promise<Outcome<PolicyRow>> => {
    const parsed = parseRequest(policyRequest, body)
    if (!parsed.ok) return parsed
    const row = toRow(parsed.value, "api", now())
    await store.insertPolicy(row)
    cached = undefined
    return success(row)
  }

  const remove = async (id: string): Promise<Outcome<true>> => {
    const removed = await store.deletePolicy(id)
    cached = undefined
    return removed ? success(true) : failure(new NotFound({ message: `no policy "${id}"` }))
  }

  /** Checks a config file's rules, each named by its place: the first wrong one is the error. */
  const checkConfig = (bodies: readonly unknown[]): Outcome<PolicyRequest[]> => {
    const checked: PolicyRequest[] = []
    for (const [index, body] of bodies.entries()) {
      const parsed = parseRequest(policyRequest, body)
      if (!parsed.ok) return failure(new InvalidInput({ message: `policies[${index}]: ${parsed.error.message}` }))
      checked.push(parsed.value)
    }
    return success(checked)
  }

  /** Replaces the config file's rules with these (checked by `checkConfig`); rules added through the API stay. */
  const applyConfig = async (requests: readonly PolicyRequest[]) => {
    const at = now()
    await store.replaceConfigPolicies(requests.map((request) => toRow(request, "config", at)))
    cached = undefined
  }

  return { approvals, fresh, rules, decide, add, remove, checkConfig, applyConfig }
}

export type PolicyService = ReturnType<typeof createPolicyService>
