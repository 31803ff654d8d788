/**
 * `switchboard` — the command line (its commands are in commands.ts). The server loads build outputs: the
 * sandbox's prelude and the bundles its worker threads run, in the packages' dist/ folders. Without them Node
 * stops at the first import with a bare ERR_MODULE_NOT_FOUND, so the commands load behind this check, which says
 * what to run instead.
 */
const missingBuildOutput = (error: unknown): string | undefined => {
  const { code, url } = (error ?? {}) as { code?: unknown; url?: unknown }
  const where = typeof url === "string" ? url : error instanceof Error ? error.message : ""
  return code === "ERR_MODULE_NOT_FOUND" && where.includes("/dist/") ? where : undefined
}

try {
  await import("./commands.js")
} catch (error) {
  const missing = missingBuildOutput(error)
  if (!missing) throw error
  process.stderr.write(
    `switchboard: a build output is missing (${missing}). Build the packages with \`pnpm build\` at the repository root (bash scripts/setup does).\n`,
  )
  process.exit(1)
}

// a module (top-level await), though it exports nothing
export {}
