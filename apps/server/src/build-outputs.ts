/**
 * The files the host loads at run time besides its code: the worker threads' bundles, the SQL migrations and the
 * demo's MCP server. Run from the sources (tests, tsx), they are the build outputs in the repository. The built
 * CLI (dist/, made by scripts/build-cli.mjs) carries copies, so it runs wherever it is installed: its code is in
 * dist/lib/, and the build defines SWITCHBOARD_BUILT there, so this module finds them one folder up.
 */
import { fileURLToPath } from "node:url"

declare const SWITCHBOARD_BUILT: boolean | undefined

const built = typeof SWITCHBOARD_BUILT === "boolean" ? new URL("../", import.meta.url) : undefined
/** this package's dist/, where scripts/build.mjs writes the grep worker and the demo server */
const serverDist = built ?? new URL("../dist/", import.meta.url)

/** The pool worker's bundle, or undefined for runtime-quickjs's own (its dist/pool-worker.mjs). */
export const poolWorkerFile = (): URL | undefined => (built ? new URL("pool-worker.mjs", built) : undefined)

export const grepWorkerFile = (): URL => new URL("grep-worker.mjs", serverDist)

export const migrationsFolder = (dialect: "sqlite" | "postgres"): string =>
  fileURLToPath(new URL(`drizzle/${dialect}`, built ?? new URL("../../../", import.meta.url)))

/** `switchboard demo`'s own MCP server (fixtures/src/bin/demo-server.ts, bundled), run by this Node. */
export const demoServerCommand = () => ({
  command: process.execPath,
  args: [fileURLToPath(new URL("demo-server.mjs", serverDist))],
})
