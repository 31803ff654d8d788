/** `serve`, `demo`, `mcp` and `run`: the commands that build a whole host (the host bundle, src/commands/serve.ts …). */
import type { Command } from "commander"
import { addFlags, examples, runs } from "./define.js"
import type { Outcome } from "./define.js"
import { mcpFlags, runFlags, serveFlags } from "./command-flags.js"

const SERVE_NOTES = `
The config file's settings come under the flags given on the command line. SWITCHBOARD_ADMIN_KEY, when set, is stored
(its SHA-256) as an admin API key at start. Source secrets are encrypted with SWITCHBOARD_SECRET_KEY (32 bytes, base64),
or a SQLite catalog's key file beside it (x.db -> x.key). Logs go to stderr; metrics at GET /metrics; traces to
OTEL_EXPORTER_OTLP_ENDPOINT when set.
`

export const addHostCommands = (program: Command, outcome: Outcome) => {
  const serve = addFlags(
    program
      .command("serve")
      .description("start the HTTP server (and MCP at /mcp); creates the catalog database when it is not there"),
    serveFlags,
  ).action(runs(outcome, async () => (await import("../commands/serve.js")).serveCommand))
  serve.addHelpText("after", SERVE_NOTES)
  examples(serve, [
    ["switchboard serve --db /tmp/x.db --allow-stdio", "a server on http://127.0.0.1:4747; creates /tmp/x.db"],
    ["switchboard serve --config switchboard.config.json --retain 7d"],
    ["SWITCHBOARD_ADMIN_KEY=$(cat admin.key) switchboard serve --host 0.0.0.0", "keys required; that key is an admin"],
  ])

  const demo = addFlags(
    program.command("demo").description('serve, with the demo MCP source registered (namespace "demo")'),
    serveFlags,
  ).action(runs(outcome, async () => (await import("../commands/serve.js")).demoCommand))
  examples(demo, [["switchboard demo", "serve ./.switchboard/switchboard.db with the demo source"]])

  const mcp = addFlags(
    program
      .command("mcp")
      .description("serve MCP over stdio (execute, describe, read_output, grep_output) on a local catalog"),
    mcpFlags,
  ).action(runs(outcome, async () => (await import("../commands/mcp.js")).mcpCommand))
  examples(mcp, [["switchboard mcp --db /path/to/catalog.db --allow-stdio", "what an MCP client's config starts"]])

  const run = addFlags(
    program
      .command("run")
      .description(
        "run a script (a file, or - for stdin) against the catalog, and print its whole result; " +
          "a run that pauses for a person's approval prints how to decide it and exits 3",
      )
      .argument("<file>", "the script, or - to read it from stdin"),
    runFlags,
  ).action(runs(outcome, async () => (await import("../commands/run.js")).runCommand))
  examples(run, [
    ["switchboard run script.ts --allow-stdio", "locally, on the default catalog"],
    [
      `echo 'return (await tools.demo.add({ a: 2, b: 3 })).data' | switchboard run - --url http://127.0.0.1:4747`,
      "on a server",
    ],
    ["switchboard run big.ts > out.txt", "the whole result, however long"],
    ["switchboard run big.ts --model-text", "what a model would see: at most 30,000 characters, then how to read on"],
  ])
}
