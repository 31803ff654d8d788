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
