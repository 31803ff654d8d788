/**
 * The real MCP servers each catalog is made of, as stdio commands run by this Node: the demo's own server (what
 * `switchboard demo` runs) and three reference servers from npm at the versions bench/package.json pins.
 */
import { createRequire } from "node:module"
import { fixtureCommand } from "@switchboard/fixtures"
import type { SourceBody } from "./switchboard.js"
import type { Workspace } from "./workspace.js"

export interface Upstream {
  /** the namespace Switchboard registers it under; the server's own tool names are kept on both sides */
  namespace: string
  command: string
  args: string[]
  env?: Record<string, string>
}

const binOf = (name: string) => createRequire(import.meta.url).resolve(`${name}/dist/index.js`)

export const demoUpstreams = (): Upstream[] => [{ namespace: "demo", ...fixtureCommand("demo-server") }]

export const referenceUpstreams = (workspace: Workspace): Upstream[] => [
  {
    namespace: "everything",
    command: process.execPath,
    args: [binOf("@modelcontextprotocol/server-everything"), "stdio"],
  },
  {
    namespace: "memory",
    command: process.execPath,
    args: [binOf("@modelcontextprotocol/server-memory")],
    env: { MEMORY_FILE_PATH: workspace.memoryFile },
  },
  {
    namespace: "files",
    command: process.execPath,
    args: [binOf("@modelcontextprotocol/server-filesystem"), workspace.dir],
  },
]

/** The same server as a Switchboard MCP source over stdio. */
export const mcpSourceOf = ({ namespace, command, args, env }: Upstream): SourceBody => ({
  namespace,
  kind: "mcp",
  transport: { type: "stdio", command, args, env: env ?? {} },
})
