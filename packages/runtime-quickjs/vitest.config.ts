import { defineConfig } from "vitest/config"

// The pool worker and the prelude are build outputs (dist/): every test run builds them first from the current
// sources, so no test runs a stale bundle.
export default defineConfig({ test: { globalSetup: ["./test/global-setup.ts"] } })
