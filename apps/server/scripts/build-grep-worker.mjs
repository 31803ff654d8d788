// Bundles src/grep/grep-worker.ts into src/grep/grep-worker.generated.mjs: a worker thread loads plain
// JavaScript only. npm packages stay external and resolve from this package. Run: pnpm build:grep-worker.
// test/grep-worker-fresh.test.ts fails when the committed file is stale.
import { writeFile } from "node:fs/promises"
import { fileURLToPath } from "node:url"
import { bundleWorker } from "../../../scripts/bundle-worker.mjs"

const entry = fileURLToPath(new URL("../src/grep/grep-worker.ts", import.meta.url))
export const generatedPath = fileURLToPath(new URL("../src/grep/grep-worker.generated.mjs", import.meta.url))

/** The full text of grep-worker.generated.mjs, built in memory. */
export const renderGrepWorker = () =>
  bundleWorker({
    entry,
    external: ["re2js"],
    generatedBy: "scripts/build-grep-worker.mjs",
    source: "src/grep/grep-worker.ts",
    rebuild: "pnpm build:grep-worker",
  })

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await writeFile(generatedPath, await renderGrepWorker())
  console.log(`wrote ${generatedPath}`)
}
