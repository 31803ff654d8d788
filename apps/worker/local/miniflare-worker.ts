/**
 * The Worker as `wrangler deploy` builds it (dist/, from `pnpm build`), run in real workerd through Miniflare, with
 * a local D1 migrated by the same drizzle/sqlite files the Node host uses. Miniflare refuses what production
 * refuses (eval, WebAssembly compiled from bytes); what it does not enforce (the CPU and memory limits) the
 * README lists.
 */
import { readFileSync, readdirSync } from "node:fs"
import { dirname } from "node:path"
import { fileURLToPath } from "node:url"
import { Miniflare } from "miniflare"

process.env.CLOUDFLARE_CF_FETCH_ENABLED ??= "false"

const dist = fileURLToPath(new URL("../dist/", import.meta.url))
const migrations = fileURLToPath(new URL("../../../drizzle/sqlite/", import.meta.url))

/** a fixed pair for tests: an admin key and a secret key, as an operator would set them with `wrangler secret put` */
export const TEST_ADMIN_KEY = `sb_${"a".repeat(43)}`
export const TEST_SECRET_KEY = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8="

export interface WorkerOptions {
  bindings?: Record<string, string>
  /** a worker script of the test's own instead of the built Worker (it is given the same D1 and wasm rule) */
  scriptPath?: string
  /** workerd's DevTools inspector on this port (a bench reads the isolate's heap through it) */
  inspectorPort?: number
}

export const migrationStatements = (): string[] =>
  readdirSync(migrations)
    .filter((name) => name.endsWith(".sql"))
    .sort()
    .flatMap((name) => readFileSync(`${migrations}${name}`, "utf8").split("--> statement-breakpoint"))
    .map((statement) => statement.trim())
    .filter((statement) => statement.length > 0)

export const startWorker = async (options: WorkerOptions = {}) => {
  const mf = new Miniflare({
    modules: true,
    scriptPath: options.scriptPath ?? `${dist}index.js`,
    modulesRoot: options.scriptPath ? dirname(options.scriptPath) : dist,
    modulesRules: [{ type: "CompiledWasm", include: ["**/*-wasm", "**/*.wasm"] }],
    compatibilityDate: "2026-04-26",
    d1Databases: { DB: "switchboard-test" },
    bindings: {
      SWITCHBOARD_ADMIN_KEY: TEST_ADMIN_KEY,
      SWITCHBOARD_SECRET_KEY: TEST_SECRET_KEY,
      ...options.bindings,
    },
    host: "127.0.0.1",
    port: 0,
    ...(options.inspectorPort !== undefined ? { inspectorPort: options.inspectorPort } : {}),
  })
  const url = await mf.ready
  const db = await mf.getD1Database("DB")
  for (const statement of migrationStatements()) await db.prepare(statement).run()
  return { url: url.origin, mf, db, close: () => mf.dispose() }
}

export type RunningWorker = Awaited<ReturnType<typeof startWorker>>
