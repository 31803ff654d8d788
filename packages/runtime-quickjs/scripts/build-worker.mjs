// Bundles src/node/pool-worker.ts (the code of a pool worker thread) into dist/pool-worker.mjs. A worker thread
// loads plain JavaScript only; the bundle keeps npm packages external, so Node resolves them from this package.
// The prelude is inside the bundle, so dist/prelude.js is built first. Part of `pnpm build` (scripts/build.mjs).
import { build } from "esbuild"
import { fileURLToPath } from "node:url"
import { bundleWorker, writeOutput } from "../../../scripts/bundle-worker.mjs"

const poolWorkerPath = fileURLToPath(new URL("../dist/pool-worker.mjs", import.meta.url))

/** Writes dist/pool-worker.mjs. */
export async function buildWorker() {
  const text = await bundleWorker(build, {
    entry: fileURLToPath(new URL("../src/node/pool-worker.ts", import.meta.url)),
    external: ["quickjs-emscripten-core", "@jitl/quickjs-wasmfile-release-sync", "sucrase", "acorn"],
    generatedBy: "scripts/build-worker.mjs",
    source: "src/node/pool-worker.ts",
    rebuild: "pnpm build",
  })
  await writeOutput(poolWorkerPath, text)
}
