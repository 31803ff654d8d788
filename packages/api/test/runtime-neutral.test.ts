/**
 * core and api must run unchanged on Cloudflare Workers: bundled for a neutral platform, nothing they
 * reach may import a Node built-in.
 */
import { builtinModules } from "node:module"
import { fileURLToPath } from "node:url"
import { build } from "esbuild"
import type { Plugin } from "esbuild"
import { expect, it } from "vitest"

const builtins = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`)])

const bundle = async (entry: string) => {
  const reached: string[] = []
  const spy: Plugin = {
    name: "node-builtins",
    setup(b) {
      b.onResolve({ filter: /.*/ }, (args) => {
        if (builtins.has(args.path) || args.path.startsWith("node:")) {
          reached.push(`${args.path} (from ${args.importer})`)
          return { path: args.path, external: true }
        }
        return undefined
      })
    },
  }
  const result = await build({
    entryPoints: [fileURLToPath(new URL(entry, import.meta.url))],
    bundle: true,
    write: false,
    platform: "neutral",
    format: "esm",
    mainFields: ["module", "main"],
    conditions: ["workerd", "worker", "import", "default"],
    plugins: [spy],
    logLevel: "silent",
  })
  return { reached, errors: result.errors, bytes: result.outputFiles[0]?.contents.length ?? 0 }
}

it.each(["../../core/src/index.ts", "../src/index.ts", "../src/client.ts"])(
  "%s bundles for a neutral platform with no Node built-in",
  async (entry) => {
    const { reached, errors, bytes } = await bundle(entry)
    expect(errors).toEqual([])
    expect(reached).toEqual([])
    expect(bytes).toBeGreaterThan(1000)
  },
  60_000,
)

it("the check catches a Node built-in", async () => {
  const { reached } = await bundle("../../../apps/server/src/sqlite-database.ts").catch(() => ({
    reached: ["(build failed)"],
  }))
  expect(reached.length).toBeGreaterThan(0)
}, 60_000)
