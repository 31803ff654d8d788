/** `tools`, `init`, `keys` and `config`: what reads or makes a catalog without a host. */
import type { Command } from "commander"
import * as Auth from "@switchboard/core/auth"
import { addFlags, examples, runs } from "./define.js"
import type { Outcome } from "./define.js"
import { initFlags, keysCreateFlags, keysFlags, keysListFlags, toolsFlags } from "./command-flags.js"

const SCOPES_HELP = `\nScopes:\n${Auth.SCOPES.map((s) => `  ${s.padEnd(8)} ${Auth.SCOPE_DESCRIPTIONS[s]}`).join("\n")}\n`

export const addLocalCommands = (program: Command, outcome: Outcome) => {
  const tools = addFlags(
    program.command("tools").description("list the catalog's tools: one a line, its path, a tab, its description"),
    toolsFlags,
  ).action(runs(outcome, async () => (await import("../commands/tools.js")).toolsCommand))
  examples(tools, [
    ["switchboard tools --query weather --limit 5"],
    ["switchboard tools --namespace demo --long"],
    ["switchboard tools --json | jq -r '.tools[].path'"],
    ["SWITCHBOARD_URL=http://127.0.0.1:4747 switchboard tools", "a server's tools ($SWITCHBOARD_KEY its key)"],
  ])

  const init = addFlags(
    program
      .command("init")
      .description(
        "create a catalog and print its first admin API key (once: only its SHA-256 is stored); a catalog that is there already is left alone, exit 2",
      ),
    initFlags,
  ).action(runs(outcome, async () => (await import("../commands/keys.js")).initCommand))
  examples(init, [
    ["switchboard init --db /srv/switchboard.db > admin.key", "the key on stdout, what was made on stderr"],
    ["SWITCHBOARD_KEY=$(cat admin.key) switchboard keys list --db /srv/switchboard.db"],
  ])

  const keys = program
    .command("keys")
    .description("API keys, in the local catalog (over HTTP an admin key manages them: /v1/keys)")
  keys.addHelpText("after", SCOPES_HELP)
  examples(keys, [
    ["switchboard keys create agent --scope execute"],
    ["switchboard keys list --db /tmp/x.db"],
    ["switchboard keys revoke <id>"],
  ])
  const create = addFlags(
    keys
      .command("create")
      .description("make a key and print it once (only its SHA-256 is stored); what was made on stderr")
      .argument("<name>", "what the key is for"),
    keysCreateFlags,
  ).action(runs(outcome, async () => (await import("../commands/keys.js")).keysCreateCommand))
  create.addHelpText("after", SCOPES_HELP)
  examples(create, [
    ["switchboard keys create agent --scope execute", "a key for an agent: run scripts, read its own executions"],
    ["switchboard keys create ops --scope admin --db /tmp/x.db"],
  ])
  examples(
    addFlags(
      keys.command("list").description("the keys: id, name, scopes, live or revoked, created"),
      keysListFlags,
    ).action(runs(outcome, async () => (await import("../commands/keys.js")).keysListCommand)),
    [["switchboard keys list"], ["switchboard keys list --json"]],
  )
  examples(
    addFlags(
      keys.command("revoke").description("revoke a key: it is refused from then on").argument("<id>"),
      keysFlags,
    ).action(runs(outcome, async () => (await import("../commands/keys.js")).keysRevokeCommand)),
    [["switchboard keys revoke <id>"]],
  )

  const config = program.command("config").description("the config file that serve and demo read (--config)")
  examples(config, [["switchboard config check"], ["switchboard config schema"]])
  examples(
    config
      .command("check")
      .description("check a config file without starting anything: exit 0 when it is good, 1 with each problem")
      .argument("[path]", "the file (default ./switchboard.config.json)")
      .action(runs(outcome, async () => (await import("../commands/config.js")).configCheckCommand)),
    [["switchboard config check switchboard.config.json"]],
  )
  examples(
    config
      .command("schema")
      .description("print the config file's JSON Schema")
      .action(runs(outcome, async () => (await import("../commands/config.js")).configSchemaCommand)),
    [["switchboard config schema > switchboard.config.schema.json"]],
  )
}
