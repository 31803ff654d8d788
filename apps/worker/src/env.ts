/**
 * The Worker's bindings and secrets (wrangler.jsonc names them), checked before a request runs. The keys are read
 * once per isolate for each pair of them, and their secret box made once.
 */
import * as Auth from "@switchboard/core/auth"
import * as Secrets from "@switchboard/core/secrets"

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
  /** the secret box of `secretKey`, made at the first call and kept: it holds a CryptoKey, not I/O */
  secretBox: () => Promise<Secrets.SecretBox>
}

type ConfigRead = { ok: true; config: WorkerConfig } | { ok: false; message: string }

const readKeys = (adminText: string | undefined, secretText: string | undefined) => {
  const problems: string[] = []
  const adminKey = adminText?.trim() ?? ""
  const adminProblem =
    adminKey === ""
      ? "SWITCHBOARD_ADMIN_KEY is not set (wrangler secret put SWITCHBOARD_ADMIN_KEY)"
      : Auth.adminKeyProblem(adminKey)
  if (adminProblem !== undefined) problems.push(adminProblem)
  const parsed = Secrets.parseSecretKey(secretText?.trim() ?? "")
  if (!parsed.ok)
    problems.push(
      secretText
        ? `SWITCHBOARD_SECRET_KEY ${parsed.message}`
        : "SWITCHBOARD_SECRET_KEY is not set (openssl rand -base64 32 | wrangler secret put SWITCHBOARD_SECRET_KEY)",
    )
  if (problems.length > 0 || !parsed.ok) return { problems }
  let box: Promise<Secrets.SecretBox> | undefined
  const config: WorkerConfig = {
    adminKey,
    secretKey: parsed.key,
    secretBox: () => (box ??= Secrets.createSecretBox(parsed.key)),
  }
  return { problems, config }
}

// An isolate's secrets are the same for every request: each pair is read (and its secret box made) once
const keysRead = new Map<string, ReturnType<typeof readKeys>>()

/** What the operator must set, each named with the command that sets it; a value, not an exception. */
export const readConfig = (env: Env): ConfigRead => {
  const pair = JSON.stringify([env.SWITCHBOARD_ADMIN_KEY ?? null, env.SWITCHBOARD_SECRET_KEY ?? null])
  let keys = keysRead.get(pair)
  if (!keys) {
    keys = readKeys(env.SWITCHBOARD_ADMIN_KEY, env.SWITCHBOARD_SECRET_KEY)
    keysRead.set(pair, keys)
  }
  const problems = env.DB
    ? keys.problems
    : ["the D1 binding DB is missing (wrangler.jsonc d1_databases)", ...keys.problems]
  if (problems.length > 0 || !keys.config)
    return { ok: false, message: `this Worker is not configured: ${problems.join("; ")}` }
  return { ok: true, config: keys.config }
}
