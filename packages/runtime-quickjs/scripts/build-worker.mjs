// Bundles src/node/pool-worker.ts (the code of a pool worker thread) into src/node/pool-worker.generated.mjs.
// A worker thread loads plain JavaScript only; the bundle keeps npm packages external, so Node resolves
// them from this package. Run: pnpm build:worker (pnpm build:prelude runs it too, since the prelude is in
// the bundle). test/worker-fresh.test.ts fails when the committed file is stale.
import { writeFile } from "node:fs/promises"
import { fileURLToPath } from "node:url"
import { bundleWorker } from "../../../scripts/bundle-worker.mjs"

const entry = fileURLToPath(new URL("../src/node/pool-worker.ts", import.meta.url))
export const generatedPath = fileURLToPath(new URL("../src/node/pool-worker.generated.mjs", import.meta.url))

/** The full text of pool-worker.generated.mjs, built in memory. */
export const renderWorkerModule = () =>
  bundleWorker({
    entry,
    external: ["quickjs-emscripten-core", "@jitl/quickjs-wasmfile-release-sync", "sucrase", "acorn"],
    generatedBy: "scripts/build-worker.mjs",
    source: "src/node/pool-worker.ts",
    rebuild: "pnpm build:worker",
  })

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await writeFile(generatedPath, await renderWorkerModule())
  console.log(`wrote ${generatedPath}`)
}
