// `pnpm build`: this package's build outputs in dist/, from the current sources. The prelude first: the pool
// worker's bundle holds it. Tests run it first too (test/global-setup.ts), so they never see a stale bundle.
import { fileURLToPath } from "node:url"
import { buildPrelude } from "./build-prelude.mjs"
import { buildWorker } from "./build-worker.mjs"

export async function buildAll() {
  await buildPrelude()
  await buildWorker()
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await buildAll()
