/**
 * `switchboard policies list|add|remove`: the policy rules that decide which tool calls need a person's approval
 * and which never run, as `/v1/policies` shows them, in the local database (--db) or on a running server (--url, an
 * admin key). Rules a server's config file made (origin `config`) are replaced whenever it boots with that file.
 * `--json`: the API's answer.
 */
import type { PolicyView } from "../catalog-client/catalog-client.js"
import type { policiesAddFlags } from "../cli/command-flags.js"
import type { CommandInput } from "../cli/define.js"
import type { targetFlags } from "../cli/flags.js"
import { printJson, withCatalog } from "./catalog-target.js"
import { usageError } from "./common.js"
import { table, when } from "./table.js"

const ruleFlags = ["pattern", "source", "annotation", "action", "reason"] as const

/** what a rule matches, in words */
const matches = (rule: PolicyView) =>
  [
    rule.pattern !== null ? `path ${rule.pattern}` : null,
    rule.source !== null ? `source ${rule.source}` : null,
    rule.annotation !== null ? `${rule.annotation}: true` : null,
  ]
    .filter((part) => part !== null)
    .join(", ") || "every tool"

export const policiesListCommand = async ({ values }: CommandInput<typeof targetFlags>) =>
  withCatalog(values, async (client) => {
    const answer = await client.listPolicies()
    if (values.json) printJson(answer)
    else
      process.stdout.write(
        `${table(
          ["ID", "ACTION", "PATTERN", "SOURCE", "ANNOTATION", "ORIGIN", "CREATED", "REASON"],
          answer.policies.map((p) => [
            p.id,
            p.action,
            p.pattern ?? "",
            p.source ?? "",
            p.annotation ?? "",
            p.origin,
            when(p.createdAt),
            p.reason ?? "",
          ]),
        )}where no rule matches: ${answer.defaultPolicy}\n`,
      )
    return 0
  })

export const policiesAddCommand = async ({ values }: CommandInput<typeof policiesAddFlags>) => {
  if (values.action === undefined) usageError("policies add needs --action allow, require_approval or block")
  const body = Object.fromEntries(
    ruleFlags.flatMap((flag) => (values[flag] === undefined ? [] : [[flag, values[flag]]])),
  )
  return withCatalog(values, async (client) => {
    const policy = await client.addPolicy(body)
    if (values.json) printJson({ policy })
    else process.stdout.write(`added policy ${policy.id}: ${policy.action} for ${matches(policy)}\n`)
    return 0
  })
}

export const policiesRemoveCommand = async ({ values, args }: CommandInput<typeof targetFlags>) =>
  withCatalog(values, async (client) => {
    await client.removePolicy(args[0]!)
    if (!values.json) process.stdout.write(`removed policy ${args[0]}\n`)
    return 0
  })
