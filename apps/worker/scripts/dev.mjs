// `pnpm worker:dev`: the Worker in local workerd (wrangler dev) with a local D1, the drizzle/sqlite migrations
// applied, and secrets from .dev.vars (made on first run with a fresh admin key and secret key, printed once).
import { execFileSync, spawn } from "node:child_process"
import { existsSync, readFileSync, writeFileSync } from "node:fs"
import { randomBytes } from "node:crypto"
import { fileURLToPath } from "node:url"

const root = fileURLToPath(new URL("..", import.meta.url))
const port = process.env.PORT ?? "8787"
const env = { ...process.env, CLOUDFLARE_CF_FETCH_ENABLED: "false", WRANGLER_SEND_METRICS: "false" }
const varsFile = `${root}.dev.vars`
if (!existsSync(varsFile)) {
  const adminKey = `sb_${randomBytes(32).toString("base64url")}`
  writeFileSync(
    varsFile,
    `SWITCHBOARD_ADMIN_KEY=${adminKey}\nSWITCHBOARD_SECRET_KEY=${randomBytes(32).toString("base64")}\n`,
    { mode: 0o600 },
  )
  console.log(`made ${varsFile} (local secrets, not committed)`)
}
const adminKey = /^SWITCHBOARD_ADMIN_KEY=(.*)$/m.exec(readFileSync(varsFile, "utf8"))?.[1]
execFileSync("pnpm", ["exec", "wrangler", "d1", "migrations", "apply", "DB", "--local"], {
  cwd: root,
  env,
  stdio: "inherit",
})
console.log(`\nSwitchboard Worker on http://127.0.0.1:${port} — admin key: ${adminKey}`)
console.log(
  `try: curl -s http://127.0.0.1:${port}/v1/execute -H "authorization: Bearer ${adminKey}" -H "content-type: application/json" -d '{"code":"return 1 + 1"}'\n`,
)
const dev = spawn("pnpm", ["exec", "wrangler", "dev", "--ip", "127.0.0.1", "--port", port], {
  cwd: root,
  env,
  stdio: "inherit",
})
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => dev.kill(signal))
dev.on("exit", (code) => process.exit(code ?? 0))
