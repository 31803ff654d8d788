/**
 * Which policy applies to a tool call: the one rule that matches it best, or the default. Pure functions over the
 * rules, so every surface (the executor, describe, the API) decides alike.
 *
 * A rule matches a tool when each of its fields that is set matches: `pattern` the tool's path (`*` stands for any
 * run of characters), `source` its namespace, `annotation` a hint the tool declares `true`. Of the rules that match,
 * the most specific wins: an exact path counts 4, a path pattern 2 plus its literal characters' share, a source 1,
 * an annotation 1, summed. On a tie the strictest action wins (block, then require_approval, then allow). With no
 * rule matching, the default: a tool that declares `destructiveHint: true` requires approval; any other is allowed.
 * A hint counts only when the tool declares it `true`: MCP's spec defaults destructiveHint to true for a tool
 * that says nothing, and treating every unannotated tool as destructive would ask a person about every call.
 */
import { isRecord } from "../is-record.js"
import type { PolicyAction, PolicyRow } from "../catalog/rows.js"

/** The hints a rule may name: MCP's tool annotations. */
export const POLICY_ANNOTATIONS = ["destructiveHint", "readOnlyHint", "openWorldHint", "idempotentHint"] as const
export type PolicyAnnotation = (typeof POLICY_ANNOTATIONS)[number]

export const POLICY_ACTIONS = ["allow", "require_approval", "block"] as const

/** What a tool is, as far as policies look at it. */
export interface PolicySubject {
  path: string
  namespace: string
  annotations: unknown
}

/** The policy a call falls under: its action, the rule (null: the default) and why, in words for people. */
export interface EffectivePolicy {
  action: PolicyAction
  rule: PolicyRow | null
  reason: string
}

/** What decides a call's policy (PolicyService does, from the stored rules). */
export interface PolicyDecider {
  decide(subject: PolicySubject): Promise<EffectivePolicy>
}

export const DEFAULT_ALLOW_REASON = "no rule matches, and the tool does not declare destructiveHint"
export const DEFAULT_APPROVAL_REASON = "the tool declares destructiveHint: true (the default policy)"

const strictness: Record<PolicyAction, number> = { allow: 0, require_approval: 1, block: 2 }

/**
 * Whether `path` matches `pattern` whole, `*` standing for any run of characters. Two pointers, returning to the
 * last star on a mismatch: at most pattern × path steps. A regex of `.*` backtracked exponentially in the number of
 * stars (2.5 s for ten against 63 characters), on the main thread, at each execution's first call of a tool.
 */
export const wildcardMatches = (pattern: string, path: string): boolean => {
  let p = 0
  let t = 0
  let star = -1
  let resumeAt = 0
  while (t < path.length) {
    if (p < pattern.length && pattern[p] !== "*" && pattern[p] === path[t]) {
      p++
      t++
    } else if (p < pattern.length && pattern[p] === "*") {
      star = p++
      resumeAt = t
    } else if (star >= 0) {
      p = star + 1
      t = ++resumeAt
    } else return false
  }
  while (p < pattern.length && pattern[p] === "*") p++
  return p === pattern.length
}

export const declares = (annotations: unknown, hint: string) => isRecord(annotations) && annotations[hint] === true

export const ruleMatches = (rule: PolicyRow, subject: PolicySubject) =>
  (rule.pattern === null || wildcardMatches(rule.pattern, subject.path)) &&
  (rule.source === null || rule.source === subject.namespace) &&
  (rule.annotation === null || declares(subject.annotations, rule.annotation))

const specificity = (rule: PolicyRow) => {
  let score = 0
  if (rule.pattern !== null)
    score += rule.pattern.includes("*") ? 2 + rule.pattern.replaceAll("*", "").length / (rule.pattern.length + 1) : 4
  if (rule.source !== null) score += 1
  if (rule.annotation !== null) score += 1
  return score
}

/** The rule's own words, or what it matches. */
export const describeRule = (rule: PolicyRow) => {
  const matches = [
    rule.pattern !== null ? `path ${rule.pattern}` : null,
    rule.source !== null ? `source ${rule.source}` : null,
    rule.annotation !== null ? `${rule.annotation}: true` : null,
  ].filter((part) => part !== null)
  const what = matches.length > 0 ? matches.join(", ") : "every tool"
  return rule.reason ? `${rule.reason} (policy ${rule.id}: ${what})` : `policy ${rule.id} (${what})`
}

/**
 * The policy for `subject` under `rules`. `approvals: false` (a server that turned approvals off for trusted local
 * use) allows what would have required approval; a `block` still blocks.
 */
export const effectivePolicy = (
  rules: readonly PolicyRow[],
  subject: PolicySubject,
  options: { approvals: boolean },
): EffectivePolicy => {
  let best: PolicyRow | null = null
  let bestScore = -1
  for (const rule of rules) {
    if (!ruleMatches(rule, subject)) continue
    const score = specificity(rule)
    if (score > bestScore || (score === bestScore && strictness[rule.action] > strictness[best!.action])) {
      best = rule
      bestScore = score
    }
  }
  const policy: EffectivePolicy = best
    ? { action: best.action, rule: best, reason: describeRule(best) }
    : declares(subject.annotations, "destructiveHint")
      ? { action: "require_approval", rule: null, reason: DEFAULT_APPROVAL_REASON }
      : { action: "allow", rule: null, reason: DEFAULT_ALLOW_REASON }
  if (policy.action === "require_approval" && !options.approvals)
    return { ...policy, action: "allow", reason: `${policy.reason}; approvals are off on this server` }
  return policy
}
