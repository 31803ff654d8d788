/**
 * How `switchboard serve` (and `demo`) takes a config file: which file, and how its settings meet the flags.
 * Precedence, highest first: a flag given on the command line, the file, the environment (`SWITCHBOARD_DB`,
 * `DATABASE_URL` for `db`), the built-in default. A boolean flag can only turn a setting on: a file's `true` is
 * undone by editing the file.
 */
import { existsSync } from "node:fs"
import type { RunLimits } from "@switchboard/core"
import type { HostOptions } from "../compose.js"
import { DEFAULT_CONFIG_PATH, loadConfigFile } from "./config-file.js"
import type { ConfigFile } from "./config-schema.js"

/** The flags a file's `server` object may set, by the name of each in the file. */
const SETTING_FLAGS = {
  db: "db",
  host: "host",
  port: "port",
  allowStdio: "allow-stdio",
  allowStdioCodeEnv: "allow-stdio-code-env",
  allowPrivateSources: "allow-private-sources",
  requireKey: "require-key",
  publicUrl: "public-url",
  syncTtl: "sync-ttl",
  retain: "retain",
  retainExecutions: "retain-executions",
  maxConnectionsPerAddress: "max-connections-per-address",
} as const

export interface ServeFlags {
  db: string
  host: string
  port: string
  "allow-stdio": boolean
  "allow-stdio-code-env": boolean
  "allow-private-sources": boolean
  "require-key": boolean
  "public-url"?: string
  "sync-ttl": string
  retain?: string
  "retain-executions"?: string
  "max-connections-per-address"?: string
}

/** `--config <path>`; without it `./switchboard.config.json` when that file exists; else no file. */
export const configPathFor = (flag: string | undefined): string | undefined =>
  flag ?? (existsSync(DEFAULT_CONFIG_PATH) ? DEFAULT_CONFIG_PATH : undefined)

/** The file at `path`, or every problem with it (the caller stops the boot). */
export const readServeConfig = (path: string | undefined) =>
  path === undefined ? undefined : { path, ...loadConfigFile(path) }

/** The flag values with the file's settings under the flags that were given. */
export const withFileSettings = <F extends ServeFlags>(
  flags: F,
  given: ReadonlySet<string>,
  file: ConfigFile | undefined,
): F => {
  const merged: Record<string, unknown> = { ...(flags as ServeFlags) }
  for (const [setting, flag] of Object.entries(SETTING_FLAGS)) {
    const value = file?.server?.[setting as keyof typeof SETTING_FLAGS]
    if (value === undefined || given.has(flag)) continue
    merged[flag] = typeof value === "number" ? String(value) : value
  }
  return merged as F
}

/** The file's limits under the limit flags: a flag wins, limit by limit. */
export const withFileLimits = <T extends Pick<HostOptions, "limits">>(tuning: T, file: ConfigFile | undefined): T => {
  const limits: Partial<RunLimits> = { ...file?.limits, ...tuning.limits }
  return Object.keys(limits).length > 0 ? { ...tuning, limits } : tuning
}
