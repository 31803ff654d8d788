/**
 * `switchboard policies list|add|remove`: the policy rules that decide which tool calls need a person's approval
 * and which never run, as `/v1/policies` shows them, in the local database (--db) or on a running server (--url, an
 * admin key). Rules a server's config file made (origin `config`) are replaced whenever it boots with that file.
 * `--json`: the API's answer.
 */
import { parseArgs } from "node:util"
import type { PolicyView } from "../catalog-client/catalog-client.js"
import { printJson, targetOptions, withCatalog } from "./catalog-target.js"
import { indented, policiesUsage } from "./catalog-usage.js"
import { fail } from "./common.js"
import { table, when } from "./table.js"

const ruleFlags = ["pattern", "source", "annotation", "action", "reason"] as const

const options = {
  ...targetOptions,
  pattern: { type: "string" },
  source: { type: "string" },
  annotation: { type: "string" },
  action: { type: "string" },
  reason: { type: "string" },
} as const

const usageError = (problem: string): never => fail(`${problem}\n  ${indented(policiesUsage, "  ")}`)

/** what a rule matches, in words */
const matches = (rule: PolicyView) =>
  [
    rule.pattern !== null ? `path ${rule.pattern}` : null,
    rule.source !== null ? `source ${rule.source}` : null,
    rule.annotation !== null ? `${rule.annotation}: true` : null,
  ]
    .filter((part) => part !== null)
    .join(", ") || "every tool"

export const policiesCommand = async (args: string[]) => {
  const { values, positionals } = parseArgs({ args, options, allowPositionals: true, strict: true })
  const [action, ...rest] = positionals
  const given = ruleFlags.filter((flag) => values[flag] !== undefined)
  if (action !== "add" && given.length > 0) usageError(`--${ruleFlags.join(", --")} are for policies add`)

  if (action === "list") {
    if (rest.length > 0) usageError("policies list takes no argument")
    return withCatalog(values, async (client) => {
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
  }
  if (action === "add") {
    if (rest.length > 0) usageError("policies add takes flags only")
    if (values.action === undefined) usageError("policies add needs --action allow, require_approval or block")
    const body = Object.fromEntries(given.map((flag) => [flag, values[flag]]))
    return withCatalog(values, async (client) => {
      const policy = await client.addPolicy(body)
      if (values.json) printJson({ policy })
      else process.stdout.write(`added policy ${policy.id}: ${policy.action} for ${matches(policy)}\n`)
      return 0
    })
  }
  if (action === "remove") {
    const [id, ...extra] = rest
    if (id === undefined || extra.length > 0) usageError("policies remove takes one policy id")
    return withCatalog(values, async (client) => {
      await client.removePolicy(id!)
      if (!values.json) process.stdout.write(`removed policy ${id}\n`)
      return 0
    })
  }
  return usageError(action === undefined ? "policies needs an action" : `unknown action "${action}"`)
}
