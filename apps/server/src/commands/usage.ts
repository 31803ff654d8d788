/** `switchboard --help`. */
import { SCOPES, SCOPE_DESCRIPTIONS } from "@switchboard/core"
import { approvalFlagsUsage } from "../approval-flags.js"
import { configUsage } from "../config/config-command.js"
import { logFlagsUsage } from "../log-flags.js"
import { retentionFlagsUsage } from "../retention-flags.js"
import { runtimeFlagsUsage } from "../runtime-flags.js"
import { DEFAULT_DB } from "./common.js"
import { approvalsUsage, executionsUsage, indented, policiesUsage, sourcesUsage } from "./catalog-usage.js"

export const usage = () => `switchboard <command> [options]

commands:
  serve   start the HTTP server        --port 4747 --host 127.0.0.1 --db ${DEFAULT_DB} --allow-stdio --sync-ttl 15m --allow-private-sources
          (creates the database when it is not there, and says so)
  demo    serve with the demo MCP source registered (namespace "demo")   same options as serve
  run     run a script file (or - for stdin) against the catalog and print its result   --db --no-approvals --approval-timeout 1h
          a run that pauses for an approval prints what waits and how to decide it, and exits 3
  tools   list the catalog's tools     --db --query TEXT --namespace NS
  mcp     serve MCP over stdio (execute, describe, read_output, grep_output)   --db --allow-stdio --sync-ttl 15m
          --no-approvals --approval-timeout 1h
  sources the catalog's sources, as /v1/sources shows them:
          ${indented(sourcesUsage, "          ")}
  describe <ns.tool> [...]             the TypeScript a model sees for the tools (POST /v1/describe)
  call <ns.tool> [json-args | @file | -]   run one tool as an execution; print its data (a string as its own text,
          else JSON), or on a failed call its error code and message on stderr, exit 1; --json the whole result union;
          a call that pauses for an approval prints what waits and how to decide it, and exits 3
  executions  stored executions:
          ${indented(executionsUsage, "          ")}
          show: a summary and the tool calls; output: the stored result text byte for byte, a page of its lines, or
          the lines that match an RE2 pattern
  policies  the rules that decide which calls need a person's approval, and which never run (/v1/policies):
          ${indented(policiesUsage, "          ")}
  approvals calls paused for a person's decision (/v1/approvals); deciding resumes the execution:
          ${indented(approvalsUsage, "          ")}
          locally (--db) the resumed run runs in the command's process, which waits for it; on a server (--url) it
          runs there, and --wait 30s waits for its end. Both print the execution's end when it is known
          sources, describe, call, executions, policies and approvals work on the local catalog (--db, the default),
          or on a running server with --url URL (or $SWITCHBOARD_URL), sending $SWITCHBOARD_KEY as its key when set;
          --json prints what the HTTP API answers. sources add|sync, call and approvals approve|decline take
          --allow-stdio for a local stdio source
  config  ${configUsage.replaceAll("\n", "\n          ")}
  keys    API keys: keys create <name> --scope <scope> (prints the key once) | keys list | keys revoke <id>   --db
          a server listening beyond loopback (--host 0.0.0.0), or started with --require-key, needs one on every route but /healthz and /readyz;
          there an admin key also manages keys over HTTP (POST /v1/keys, GET /v1/keys, DELETE /v1/keys/<id>)
          --scope (repeat it, or separate with commas; each includes the ones above it):
${SCOPES.map((s) => `            ${s.padEnd(8)} ${SCOPE_DESCRIPTIONS[s]}`).join("\n")}

--db is a SQLite file or a postgres:// URL (default: $SWITCHBOARD_DB, $DATABASE_URL, ${DEFAULT_DB}). Only serve and
  demo create a database; every other command given a file that does not exist, a directory, an empty file or
  one that is not SQLite says so and exits 2.

source secrets are encrypted in the catalog with SWITCHBOARD_SECRET_KEY (32 bytes, base64: openssl rand -base64 32);
  without it a SQLite catalog makes a 0600 key file beside its database (x.db -> x.key); Postgres requires it

sources:
  --allow-stdio            stdio sources run a command on this host: without it none is started (add, sync or call), whoever added it
  --allow-private-sources  a server listening beyond loopback refuses http sources at loopback, private, link-local and metadata
                           addresses (after DNS resolution and on every redirect); this allows them. run and mcp listen nowhere: no check

connections (serve, demo):
  --max-connections-per-address 100   requests in progress from one client address (an IPv6 /64) at once; past it a request
                           is answered 429 too_many_connections, but /healthz and /readyz always are. Behind a reverse proxy every
                           client has the proxy's address: raise it to what the proxy may send at once

config file (serve, demo): --config PATH (default ./switchboard.config.json when it exists) declares sources, policy
  rules, limits, approvals and server settings; a flag given on the command line wins over the file. At boot its
  sources are applied: added, updated and re-synced when changed, kept when unchanged; a catalog source not in the file
  is kept, or removed with --prune. Its policy rules replace those an earlier file made (rules added through the API stay)

logs (serve, demo): request lines and events on stderr; metrics at GET /metrics (admin scope when keys are on);
  traces to an OTLP/HTTP collector when OTEL_EXPORTER_OTLP_ENDPOINT is set
  ${logFlagsUsage}
retention (serve, demo):
  ${retentionFlagsUsage}
approvals (serve, demo, mcp, run):
  ${approvalFlagsUsage}

limits and sandbox workers (serve, demo, mcp, run; a request may lower a limit, never raise it):
  ${runtimeFlagsUsage}
  Scripts run in a pool of worker threads (--workers, default: the CPU count, at least 2); up to --queue
  executions wait for a worker (default 64, at least 8 per worker), past that an execution is refused at once (429).
`
