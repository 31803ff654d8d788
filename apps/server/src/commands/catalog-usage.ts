/** How the catalog's commands are called: in their own usage errors, and in `switchboard --help` (./usage.ts). */

export const sourcesUsage = `sources list
sources add <json | @file | ->            a POST /v1/sources body, as a config file's source
sources add <namespace> [--env K=V]... --stdio <command> [args...]   (what follows --stdio is the command)
sources add <namespace> --http <url> [--header 'Name: value']...
sources sync <namespace> | sources remove <namespace>`

export const executionsUsage = `executions list [--limit N] [--status ok|error|paused] [--before <id>]
executions show <id>
executions output <id> [--offset N] [--limit N] [--char-offset N] | [--grep PATTERN]`

export const approvalsUsage = `approvals list [--status pending|approved|declined|expired|all] [--limit N]
approvals show <id>
approvals approve <id> [--note TEXT] [--wait 30s] [--allow-stdio]
approvals decline <id> [--note TEXT] [--wait 30s] [--allow-stdio]`

export const policiesUsage = `policies list
policies add --action allow|require_approval|block [--pattern 'ns.tool_*'] [--source NS] [--annotation HINT] [--reason TEXT]
policies remove <id>`

/** the lines of a usage, each indented by `indent` */
export const indented = (usage: string, indent: string) => usage.replaceAll("\n", `\n${indent}`)
