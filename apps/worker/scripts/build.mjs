// The Worker's bundle exactly as `wrangler deploy` would upload it (dist/index.js and QuickJS's .wasm), for the
// tests and bench to run in workerd: `wrangler deploy --dry-run --outdir dist`, offline.
import { execFileSync } from "node:child_process"
import { rmSync } from "node:fs"
import { fileURLToPath } from "node:url"

const root = fileURLToPath(new URL("..", import.meta.url))
rmSync(`${root}dist`, { recursive: true, force: true })
execFileSync("pnpm", ["exec", "wrangler", "deploy", "--dry-run", "--outdir", "dist"], {
  cwd: root,
  stdio: ["ignore", "ignore", "inherit"],
  env: { ...process.env, CLOUDFLARE_CF_FETCH_ENABLED: "false", WRANGLER_SEND_METRICS: "false", NO_COLOR: "1" },
})
