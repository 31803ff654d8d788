/**
 * One MCP tool call through the plugin (the pool, the call, the scrub), this tree against another's, in one
 * process, interleaved: each tree's plugin keeps one connection to its own contract fixture server (stdio) and
 * calls `echo` in turn. `pnpm tsx bench/mcp-ab.ts <other tree>` (about 30 seconds).
 */
import { resolve } from "node:path"
import { pathToFileURL } from "node:url"
import { fixtureCommand } from "@switchboard/fixtures"
import type { SourcePlugin } from "@switchboard/core"
import { createMcpPlugin } from "@switchboard/plugin-mcp/node"
import { timeInterleavedUs } from "./execute/measure.js"

const [otherTree, runsArg = "5000"] = process.argv.slice(2)
if (!otherTree) throw new Error("usage: mcp-ab.ts <other tree> [runs]")
const other = (await import(pathToFileURL(resolve(otherTree, "packages/plugin-mcp/src/node/index.ts")).href)) as {
  createMcpPlugin?: typeof createMcpPlugin
}
// before the stdio spawner was a service, the main entry made the plugin with Node's stdio built in
const otherCreate =
  other.createMcpPlugin ??
  (
    (await import(pathToFileURL(resolve(otherTree, "packages/plugin-mcp/src/index.ts")).href)) as {
      createMcpPlugin: typeof createMcpPlugin
    }
  ).createMcpPlugin
const plugins: Record<"A" | "B", SourcePlugin> = {
  A: await otherCreate({ allowStdio: true }),
  B: await createMcpPlugin({ allowStdio: true }),
}
const handle = {
  id: "fx",
  namespace: "fx",
  kind: "mcp",
  config: { transport: { type: "stdio", ...fixtureCommand("contract-stdio"), env: {} } },
}
const call = async (which: "A" | "B") => {
  // a tree whose InvokeContext carries a duration reads timeoutMs; this one reads the deadline
  const ctx = { deadline: Date.now() + 10_000, timeoutMs: 10_000 }
  const result = await plugins[which].invoke(handle, "echo", { message: "m" }, ctx)
  if (!result.ok) throw new Error(`${which}: ${result.message}`)
}
try {
  const runs = Number(runsArg)
  const [a, b] = await timeInterleavedUs(runs, [() => call("A"), () => call("B")], 500, 50)
  console.log(
    `one stdio MCP tool call through the plugin, median of ${runs} in blocks of 50: A ${a!.toFixed(1)} µs | B ${b!.toFixed(1)} µs | B/A ${(b! / a!).toFixed(3)}`,
  )
} finally {
  await plugins.A.close()
  await plugins.B.close()
}
