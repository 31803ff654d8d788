/**
 * Each command's flags, with their help (./define.ts turns them into commander options): apart from the commands
 * (./*-commands.ts), so that a command's module (src/commands/) takes its values' type from here without a cycle.
 */
import * as Render from "@switchboard/core/render"
import * as Auth from "@switchboard/core/auth"
import { DEFAULT_DB } from "../database/default-db.js"
import {
  allowStdioFlag,
  approvalFlags,
  dbFlag,
  logFlags,
  retentionFlags,
  runtimeFlags,
  syncTtlFlag,
  targetFlags,
} from "./flags.js"

export const serveFlags = {
  port: { value: "port", help: "the port to listen on (0: any free one)", default: "4747" },
  host: {
    value: "host",
    help: "the address to listen on; beyond loopback (0.0.0.0) every route but /healthz and /readyz needs an API key",
    default: "127.0.0.1",
  },
  db: { value: "path", help: `${dbFlag.db.help}; created when it is not there` },
  ...allowStdioFlag,
  "allow-private-sources": {
    help: "a server beyond loopback refuses http sources at loopback, private, link-local and metadata addresses; this allows them",
  },
  ...syncTtlFlag,
  "require-key": { help: "ask for an API key on loopback too" },
  "public-url": {
    value: "url",
    help:
      "the base URL people reach this server at behind a proxy (https://switchboard.example.com): " +
      "the OAuth callback and the console's links are built from it",
  },
  "max-connections-per-address": {
    value: "n",
    help: "requests in progress one client address (IPv6: its /64) may have (default 100); past it 429, but for /healthz and /readyz",
  },
  config: {
    value: "path",
    help: "a config file of sources, policy rules, limits and settings (default: ./switchboard.config.json when it exists)",
  },
  prune: { help: "remove the catalog's sources that the config file does not list" },
  ...runtimeFlags,
  ...logFlags,
  ...retentionFlags,
  ...approvalFlags,
} as const

export const mcpFlags = {
  ...dbFlag,
  ...allowStdioFlag,
  ...syncTtlFlag,
  ...runtimeFlags,
  ...approvalFlags,
} as const

export const runFlags = {
  ...targetFlags,
  ...allowStdioFlag,
  "model-text": {
    help: "print what a model is shown: past 30,000 characters the first lines and how to read the rest (switchboard executions output <id>)",
  },
  ...runtimeFlags,
  ...approvalFlags,
} as const

export const toolsFlags = {
  ...targetFlags,
  query: { value: "text", help: "rank the tools by this text, as GET /v1/tools?query= and tools.$search do" },
  namespace: { value: "ns", help: "only this source's tools" },
  limit: { value: "n", help: "at most n tools" },
  long: { help: "each tool's whole description (by default its first line, cut to fit one line)" },
} as const

export const keysFlags = dbFlag

export const keysCreateFlags = {
  ...dbFlag,
  scope: {
    value: "scope",
    help: `${Auth.SCOPES.join(", ")}; repeat it or separate with commas; each includes the ones before it`,
    multiple: true,
  },
} as const

export const keysListFlags = { ...dbFlag, json: { help: "print the keys as GET /v1/keys answers them" } } as const

export const initFlags = {
  db: {
    value: "path",
    help: `the catalog to create: a SQLite file or a postgres:// URL (default: $SWITCHBOARD_DB, $DATABASE_URL, ${DEFAULT_DB})`,
  },
  name: { value: "name", help: "the first key's name", default: "admin" },
} as const

export const sourcesFlags = targetFlags

export const sourcesAddFlags = {
  ...targetFlags,
  ...allowStdioFlag,
  env: {
    value: "NAME=value",
    help: "an environment variable of a stdio source (give it before --stdio)",
    multiple: true,
  },
  stdio: { help: "the source is this command, run over stdio: what follows --stdio is its command line" },
  http: { value: "url", help: "the source is the MCP server at this URL (streamable HTTP)" },
  header: { value: "'Name: value'", help: "a header sent to an http or openapi source", multiple: true },
  openapi: {
    value: "url|@file",
    help: "the source is the REST API this OpenAPI 3 spec describes: its URL, or @file for its text (JSON or YAML)",
  },
  "base-url": { value: "url", help: "where an openapi source's calls go, instead of the spec's servers" },
} as const

/** sync and remove: locally a sync starts a stdio source only with --allow-stdio */
export const sourcesSyncFlags = { ...targetFlags, ...allowStdioFlag } as const

export const sourcesUpdateFlags = sourcesSyncFlags

export const sourcesLoginFlags = {
  ...targetFlags,
  port: {
    value: "port",
    help: "the loopback port the browser comes back to, for a local login (default: any free one)",
  },
} as const

export const callFlags = { ...targetFlags, ...allowStdioFlag } as const

export const executionsListFlags = {
  ...targetFlags,
  limit: { value: "n", help: `how many, newest first (1 to ${Auth.MAX_LIST_EXECUTIONS}; default 20)` },
  status: { value: "status", help: "only these", choices: ["ok", "error", "paused"] },
  before: { value: "id", help: "the page after this id (the last one a page showed)" },
} as const

export const executionsOutputFlags = {
  ...targetFlags,
  offset: { value: "n", help: "a page of lines from line n (0-based), each after its number and a tab" },
  limit: { value: "n", help: `lines in a page (1 to ${Render.MAX_PAGE_LINES}; default 200)` },
  "char-offset": { value: "n", help: "within a very long first line, from this character" },
  grep: { value: "pattern", help: "the lines that match this RE2 pattern, each after its number and a tab" },
} as const

export const policiesAddFlags = {
  ...targetFlags,
  action: { value: "action", help: "what the rule does", choices: ["allow", "require_approval", "block"] },
  pattern: { value: "pattern", help: "the tool paths it matches: ns.tool, or with * (ns.tool_*)" },
  source: { value: "ns", help: "the source whose tools it matches" },
  annotation: { value: "hint", help: "the tools that declare this annotation true (destructiveHint, …)" },
  reason: { value: "text", help: "why, shown with each paused call" },
} as const

export const approvalsListFlags = {
  ...targetFlags,
  status: { value: "status", help: "default pending", choices: ["pending", "approved", "declined", "expired", "all"] },
  limit: { value: "n", help: "how many, newest first (1 to 200; default 50)" },
} as const

export const decideFlags = {
  ...targetFlags,
  // locally the resume runs in this command, and may call a stdio source again
  ...allowStdioFlag,
  note: { value: "text", help: "why, kept with the decision" },
  wait: { value: "duration", help: "on a server: wait this long (30s, at most 120s) for the resumed run's end" },
} as const
