/** plugin-openapi runs on Workers as on Node: bundled for a neutral platform, it reaches no Node built-in. */
import { fileURLToPath } from "node:url"
import { bundleNeutral } from "@switchboard/fixtures/neutral-bundle"
import { expect, it } from "vitest"

it("src/index.ts bundles for a neutral platform with no Node built-in", async () => {
  const { reached, bytes } = await bundleNeutral(fileURLToPath(new URL("../src/index.ts", import.meta.url)), [
    "workerd",
    "worker",
    "browser",
    "import",
    "default",
  ])
  expect(reached).toEqual([])
  expect(bytes).toBeGreaterThan(1000)
}, 60_000)
