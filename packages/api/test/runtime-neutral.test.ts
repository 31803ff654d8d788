/**
 * core and api must run unchanged on Cloudflare Workers: bundled for a neutral platform, nothing they
 * reach may import a Node built-in.
 */
import { fileURLToPath } from "node:url"
import { bundleNeutral } from "@switchboard/fixtures/neutral-bundle"
import { expect, it } from "vitest"

const bundle = (entry: string) => bundleNeutral(fileURLToPath(new URL(entry, import.meta.url)))

it.each(["../../core/src/index.ts", "../src/index.ts", "../src/client.ts"])(
  "%s bundles for a neutral platform with no Node built-in",
  async (entry) => {
    // esbuild throws on a build error, so reaching the assertions means it built
    const { reached, bytes } = await bundle(entry)
    expect(reached).toEqual([])
    expect(bytes).toBeGreaterThan(1000)
  },
  60_000,
)

it("the check catches a Node built-in: the Node server's SQLite database reaches node:fs", async () => {
  // a build that fails throws here, and fails the test: it must build, and list what it reached
  const entry = fileURLToPath(new URL("../../../apps/server/src/database/sqlite-database.ts", import.meta.url))
  const { reached } = await bundle(entry)
  expect(reached).toContain(`node:fs (from ${entry})`)
}, 60_000)
