/**
 * plugin-mcp's main entry runs on Workers too (the Worker host composes it with MCP over HTTP only): bundled for
 * a neutral platform, nothing it reaches may import a Node built-in. Node-only code sits under src/node.
 */
import { fileURLToPath } from "node:url"
import { bundleNeutral } from "@switchboard/fixtures/neutral-bundle"
import { expect, it } from "vitest"

// wrangler resolves "browser" too: pkce-challenge (the SDK's OAuth) has only browser and node builds
const bundle = (entry: string) =>
  bundleNeutral(fileURLToPath(new URL(entry, import.meta.url)), ["workerd", "worker", "browser", "import", "default"])

it("src/index.ts bundles for a neutral platform with no Node built-in", async () => {
  // esbuild throws on a build error, so reaching the assertions means it built
  const { reached, bytes } = await bundle("../src/index.ts")
  expect(reached).toEqual([])
  expect(bytes).toBeGreaterThan(1000)
}, 60_000)

it("the check catches a Node built-in: src/node reaches child_process", async () => {
  // a build that fails throws here, and fails the test: it must build, and list what it reached
  const { reached } = await bundle("../src/node/index.ts")
  const transport = fileURLToPath(new URL("../src/node/stdio-transport.ts", import.meta.url))
  expect(reached).toContain(`node:child_process (from ${transport})`)
}, 60_000)
