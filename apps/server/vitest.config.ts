import { defineConfig } from "vitest/config"

// These tests spawn real MCP servers (about 2 s each through tsx) on a 2-core machine: generous timeouts,
// and files one at a time so spawns do not starve each other. The search thread and the built CLI the process
// tests spawn are build outputs (dist/): every test run builds them first from the current sources. The
// runtime's bundles come from its own build (`pnpm build` at the root, which `npm test` runs before the tests).
export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    fileParallelism: false,
    globalSetup: ["./test/support/global-setup.ts"],
  },
})
