/** The flags several commands share, with their help: each defined once here, parsed by commander (./define.ts). */
import { APPROVAL_TIMEOUT_FORM } from "../flags/approval-flags.js"
import { DEFAULT_DB } from "../database/default-db.js"
import { LOG_FORMATS, LOG_LEVELS } from "../logging/log-levels.js"
import { SYNC_TTL_FORM } from "../flags/sync-ttl.js"

export const URL_ENV = "SWITCHBOARD_URL"
export const KEY_ENV = "SWITCHBOARD_KEY"

const DB_HELP = `a SQLite file or a postgres:// URL (default: $SWITCHBOARD_DB, $DATABASE_URL, ${DEFAULT_DB})`

/** the catalog of a command that works on a local database only */
export const dbFlag = { db: { value: "path", help: DB_HELP } } as const

/** the catalog of a command that works on a local database or on a running server */
export const targetFlags = {
  db: { value: "path", help: `${DB_HELP}; a --db given wins over $${URL_ENV}` },
  url: {
    value: "url",
    help: `a running server instead of a local database (default: $${URL_ENV}); its API key is read from $${KEY_ENV}`,
  },
  json: { help: "print what the HTTP API answers, as JSON" },
} as const

export const allowStdioFlag = {
  "allow-stdio": {
    help: "stdio sources run a command on this host: without this flag none is started here (a server has its own)",
  },
  "allow-stdio-code-env": {
    help: "a stdio source's env may set variables that make its command load code (NODE_OPTIONS, LD_PRELOAD, …)",
  },
} as const

export const runtimeFlags = {
  "timeout-ms": { value: "ms", help: "a script's time limit (default 30000)" },
  "memory-mb": { value: "mb", help: "a script's memory limit (default 64)" },
  "stack-kb": { value: "kb", help: "a script's stack (default 512)" },
  "max-tool-calls": { value: "n", help: "tool calls a script may make (default 1000)" },
  "max-result-mb": { value: "mb", help: "the largest result (default 8)" },
  "max-result-nodes": { value: "n", help: "keys and elements in a result, at most (default 50000)" },
  "max-tool-result-nodes": {
    value: "n",
    help: "keys and elements in one tool result, at most (default 50000); past it the call is refused unread",
  },
  "max-log-lines": { value: "n", help: "console lines kept per script (default 1000)" },
  "max-log-kb": { value: "kb", help: "console output kept per script (default 1024)" },
  "max-tool-arg-kb": { value: "kb", help: "one tool call's arguments, at most (default 1024)" },
  "max-tool-args-in-flight-mb": { value: "mb", help: "the arguments of a script's calls in flight (default 8)" },
  workers: { value: "n", help: "sandbox worker threads (default: the CPU count, at least 2)" },
  queue: {
    value: "n",
    help: "executions that may wait for a worker (default 64, at least 8 per worker); past it one is refused (429)",
  },
} as const

export const approvalFlags = {
  "no-approvals": {
    help: "approvals off, for trusted local use: a call that would need a person's approval runs (block still blocks)",
  },
  "approval-timeout": {
    value: "duration",
    help: `how long a paused call waits for a person before it counts as declined: ${APPROVAL_TIMEOUT_FORM} (default 1h)`,
  },
} as const

export const logFlags = {
  "log-level": {
    value: "level",
    help: "info: a line per request (the default); warn leaves requests out",
    choices: LOG_LEVELS,
  },
  "log-format": {
    value: "format",
    help: "json: one JSON object a line on stderr (the default); pretty: for people",
    choices: LOG_FORMATS,
  },
} as const

export const retentionFlags = {
  retain: {
    value: "age",
    help: "prune executions that started longer ago (7d; s, m, h, d or w); without --retain or --retain-executions all are kept",
  },
  "retain-executions": { value: "n", help: "prune all but the newest N executions" },
} as const

export const syncTtlFlag = {
  "sync-ttl": {
    value: "duration",
    help: `how old a source's tools may get before a re-sync: ${SYNC_TTL_FORM}`,
    default: "15m",
  },
} as const
