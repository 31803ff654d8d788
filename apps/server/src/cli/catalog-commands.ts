/**
 * `sources`, `describe`, `call` and `executions`: the catalog, in a local database (--db) or on a running server
 * (--url), through one seam (src/catalog-client/). `policies` and `approvals` are in ./approval-commands.ts.
 */
import type { Command } from "commander"
import { addFlags, examples, runs } from "./define.js"
import type { Outcome } from "./define.js"
import {
  callFlags,
  executionsListFlags,
  executionsOutputFlags,
  sourcesAddFlags,
  sourcesFlags,
  sourcesSyncFlags,
  sourcesLoginFlags,
  sourcesUpdateFlags,
} from "./command-flags.js"
import { targetFlags } from "./flags.js"

const loadSources = async () => import("../commands/sources.js")
const loadExecutions = async () => import("../commands/executions.js")

export const addCatalogCommands = (program: Command, outcome: Outcome) => {
  const sources = program
    .command("sources")
    .description("the catalog's sources (tool servers), as /v1/sources shows them")
  examples(sources, [
    ["switchboard sources list"],
    ["switchboard sources add todo --allow-stdio --stdio node server.mjs"],
    ["switchboard sources sync todo --allow-stdio"],
    ["switchboard sources remove todo"],
  ])
  examples(
    addFlags(
      sources.command("list").description("a table of the sources; --json as GET /v1/sources (secrets redacted)"),
      sourcesFlags,
    ).action(runs(outcome, async () => (await loadSources()).sourcesListCommand)),
    [["switchboard sources list"], ["switchboard sources list --json --url http://127.0.0.1:4747"]],
  )
  examples(
    addFlags(
      sources
        .command("add")
        .description(
          "add a source and wait for its first sync: a POST /v1/sources body (JSON, @file or - for stdin), or <namespace> with --stdio, --http or --openapi",
        )
        .argument("<source>", "a JSON body, @file, -, or the namespace with --stdio, --http or --openapi"),
      sourcesAddFlags,
    ).action(runs(outcome, async () => (await loadSources()).sourcesAddCommand)),
    [
      [
        "switchboard sources add todo --allow-stdio --stdio node server.mjs --verbose",
        "everything after --stdio is the server's command line",
      ],
      [
        "switchboard sources add todo --allow-stdio --stdio node srv/server.mjs",
        "relative paths are stored absolute, taken from this directory",
      ],
      ["switchboard sources add web --http https://example.com/mcp --header 'Authorization: Bearer sk-…'"],
      [
        "switchboard sources add pets --openapi https://pets.example.com/openapi.json --header 'Authorization: Bearer …'",
      ],
      ["switchboard sources add internal --openapi @openapi.yaml --base-url https://internal.example.com/api"],
      ["switchboard sources add @source.json --allow-stdio"],
    ],
  )
  examples(
    addFlags(
      sources.command("sync").description("read a source's tools again").argument("<namespace>"),
      sourcesSyncFlags,
    ).action(runs(outcome, async () => (await loadSources()).sourcesSyncCommand)),
    [["switchboard sources sync calc --allow-stdio"]],
  )
  examples(
    addFlags(
      sources
        .command("update")
        .description(
          "replace a source's secrets or OAuth settings, then re-sync it: a PATCH /v1/sources/<namespace> body " +
            "(JSON, @file or - for stdin); prints what it dropped (a login, a secret sent elsewhere)",
        )
        .argument("<namespace>")
        .argument("<patch>", "a JSON object, @file, or - for stdin"),
      sourcesUpdateFlags,
    ).action(runs(outcome, async () => (await loadSources()).sourcesUpdateCommand)),
    [
      [`switchboard sources update web '{"transport":{"headers":{"authorization":"Bearer sk-new"}}}'`],
      [
        `switchboard sources update notion '{"auth":{"clientId":"…","clientSecret":"…"}}' --url http://127.0.0.1:4747`,
        "a new client: its login is dropped, log in again",
      ],
    ],
  )
  examples(
    addFlags(
      sources
        .command("login")
        .description(
          "log a source in with OAuth: prints the URL to open in a browser, then waits for the login to complete " +
            "(local: on a loopback port of this machine; --url: on the server's own callback)",
        )
        .argument("<namespace>"),
      sourcesLoginFlags,
    ).action(runs(outcome, async () => (await import("../commands/sources-login.js")).sourcesLoginCommand)),
    [["switchboard sources login docs"], ["switchboard sources login docs --url http://127.0.0.1:4747"]],
  )
  examples(
    addFlags(
      sources.command("remove").description("remove a source and its tools").argument("<namespace>"),
      sourcesSyncFlags,
    ).action(runs(outcome, async () => (await loadSources()).sourcesRemoveCommand)),
    [["switchboard sources remove todo"]],
  )

  examples(
    addFlags(
      program
        .command("describe")
        .description(
          "the TypeScript a model sees for these tools (POST /v1/describe); a path with no tool is named, exit 1",
        )
        .argument("<paths...>", "tool paths, namespace.tool"),
      targetFlags,
    ).action(runs(outcome, async () => (await import("../commands/describe.js")).describeCommand)),
    [["switchboard describe demo.add demo.weather"], ["switchboard describe demo.add --json"]],
  )

  examples(
    addFlags(
      program
        .command("call")
        .description(
          "run one tool, as an execution, and print its data (a string as its text, else JSON); " +
            "a failed call prints its error, exit 1; one that pauses for an approval exits 3",
        )
        .argument("<path>", "the tool, namespace.tool")
        .argument("[arguments]", "a JSON object, @file, or - for stdin ({} when none is given)"),
      callFlags,
    ).action(runs(outcome, async () => (await import("../commands/call.js")).callCommand)),
    [
      [`switchboard call demo.greet '{"name":"Ada"}' --allow-stdio`],
      [`switchboard call demo.add '{"a":2,"b":3}' --json`, "the call's whole { ok, data, content?, meta? } union"],
    ],
  )

  const executions = program.command("executions").description("stored executions: their code, calls, logs and results")
  examples(executions, [
    ["switchboard executions list --limit 5"],
    ["switchboard executions show <id>"],
    ["switchboard executions output <id> | less"],
  ])
  examples(
    addFlags(
      executions.command("list").description("the newest executions first, a page at a time"),
      executionsListFlags,
    ).action(runs(outcome, async () => (await loadExecutions()).executionsListCommand)),
    [["switchboard executions list --limit 5"], ["switchboard executions list --status paused"]],
  )
  examples(
    addFlags(
      executions
        .command("show")
        .description("an execution's summary, code, logs and tool calls; a paused one names the approval it waits for")
        .argument("<id>"),
      targetFlags,
    ).action(runs(outcome, async () => (await loadExecutions()).executionsShowCommand)),
    [["switchboard executions show <id>"]],
  )
  examples(
    addFlags(
      executions
        .command("output")
        .description(
          "an execution's stored result text, byte for byte; or a page of its lines; or the lines that match",
        )
        .argument("<id>"),
      executionsOutputFlags,
    ).action(runs(outcome, async () => (await loadExecutions()).executionsOutputCommand)),
    [
      ["switchboard executions output <id> > result.txt"],
      ["switchboard executions output <id> --offset 0 --limit 50"],
      ["switchboard executions output <id> --grep 'sum'"],
    ],
  )
}
