/** The Worker's bindings and secrets (wrangler.jsonc names them), checked once per request before anything runs. */
import { MAX_API_KEY_LENGTH, parseSecretKey } from "@switchboard/core"

export interface Env {
  /** the catalog: sources, tools, shapes, executions and API keys (migrations: drizzle/sqlite) */
  DB: D1Database
  /** the first admin key, `sb_` and at least 32 more characters (`wrangler secret put SWITCHBOARD_ADMIN_KEY`) */
  SWITCHBOARD_ADMIN_KEY?: string
  /** 32 random bytes in base64: encrypts source secrets at rest, the same scheme as the Node host */
  SWITCHBOARD_SECRET_KEY?: string
  /** retention (a var): executions that started longer ago than this age ("7d", "12h") are pruned by the cron trigger */
  SWITCHBOARD_RETAIN?: string
  /** retention (a var): only the newest this many executions are kept */
  SWITCHBOARD_RETAIN_EXECUTIONS?: string
}

export interface WorkerConfig {
  adminKey: string
  secretKey: Uint8Array<ArrayBuffer>
}

/** What the operator must set, each named with the command that sets it; a value, not an exception. */
export const readConfig = (env: Env): { ok: true; config: WorkerConfig } | { ok: false; message: string } => {
  const problems: string[] = []
  if (!env.DB) problems.push("the D1 binding DB is missing (wrangler.jsonc d1_databases)")
  const adminKey = env.SWITCHBOARD_ADMIN_KEY?.trim() ?? ""
  // core's verify looks up no token longer than this: a longer admin key would be stored and never work
  if (adminKey.length > MAX_API_KEY_LENGTH)
    problems.push(`SWITCHBOARD_ADMIN_KEY must be at most ${MAX_API_KEY_LENGTH} characters (it has ${adminKey.length})`)
  else if (!/^sb_[A-Za-z0-9_-]{32,}$/.test(adminKey))
    problems.push(
      adminKey === ""
        ? "SWITCHBOARD_ADMIN_KEY is not set (wrangler secret put SWITCHBOARD_ADMIN_KEY)"
        : "SWITCHBOARD_ADMIN_KEY must be sb_ followed by at least 32 base64url characters",
    )
  const parsed = parseSecretKey(env.SWITCHBOARD_SECRET_KEY?.trim() ?? "")
  if (!parsed.ok)
    problems.push(
      env.SWITCHBOARD_SECRET_KEY
        ? `SWITCHBOARD_SECRET_KEY ${parsed.message}`
        : "SWITCHBOARD_SECRET_KEY is not set (openssl rand -base64 32 | wrangler secret put SWITCHBOARD_SECRET_KEY)",
    )
  if (problems.length > 0 || !parsed.ok)
    return { ok: false, message: `this Worker is not configured: ${problems.join("; ")}` }
  return { ok: true, config: { adminKey, secretKey: parsed.key } }
}
