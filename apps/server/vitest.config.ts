import { defineConfig } from "vitest/config"

// These tests spawn real MCP servers (about 2 s each through tsx) on a 2-core machine: generous timeouts,
// and files one at a time so spawns do not starve each other.
export default defineConfig({ test: { testTimeout: 30_000, hookTimeout: 60_000, fileParallelism: false } })
