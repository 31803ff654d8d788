// `pnpm build`: bundles src/grep/grep-worker.ts into dist/grep-worker.mjs, from the current sources: a worker
// thread loads plain JavaScript only. re2js is inside it, so the built CLI (dist/switchboard.mjs, which loads
// it from beside itself) needs no copy in node_modules. Tests run it first too (test/support/global-setup.ts), so they
// never see a stale bundle.
import { build } from "esbuild"
import { fileURLToPath } from "node:url"
import { bundleWorker, writeOutput } from "../../../scripts/bundle-worker.mjs"

export async function buildGrepWorker() {
  const text = await bundleWorker(build, {
    entry: fileURLToPath(new URL("../src/grep/grep-worker.ts", import.meta.url)),
    external: [],
    generatedBy: "scripts/build-grep-worker.mjs",
    source: "src/grep/grep-worker.ts",
    rebuild: "pnpm build",
  })
  await writeOutput(fileURLToPath(new URL("../dist/grep-worker.mjs", import.meta.url)), text)
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await buildGrepWorker()
