/**
 * Bundles a test Worker of test/workers/ as wrangler would (esbuild, ESM, the QuickJS .wasm left as a module of
 * its own that workerd compiles), into a temporary folder Miniflare can load.
 */
import { copyFileSync, mkdtempSync } from "node:fs"
import { createRequire } from "node:module"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { build } from "esbuild"

const wasmSpecifier = "@jitl/quickjs-wasmfile-release-sync/wasm"

export const bundleTestWorker = async (entry: string) => {
  const outdir = mkdtempSync(join(tmpdir(), "switchboard-test-worker-"))
  copyFileSync(createRequire(import.meta.url).resolve(wasmSpecifier), join(outdir, "quickjs.wasm"))
  await build({
    entryPoints: [entry],
    bundle: true,
    format: "esm",
    platform: "neutral",
    target: "es2022",
    conditions: ["workerd", "worker", "browser", "import"],
    mainFields: ["module", "main"],
    outfile: join(outdir, "index.js"),
    logLevel: "error",
    plugins: [
      {
        name: "compiled-wasm",
        setup(plugin) {
          plugin.onResolve({ filter: /\/wasm$/ }, (args) =>
            args.path === wasmSpecifier ? { path: "./quickjs.wasm", external: true } : undefined,
          )
        },
      },
    ],
  })
  return join(outdir, "index.js")
}
