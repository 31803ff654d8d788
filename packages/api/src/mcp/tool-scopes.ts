/** The scope each MCP tool needs; tools/list shows a key only the tools it may call. */
import type * as Auth from "@switchboard/core/auth"

export const mcpToolScopes: Readonly<Record<string, Auth.Scope>> = {
  execute: "execute",
  // and only the key's own executions, unless admin (./resume-tool.ts, through core's readExecutionAs)
  resume: "execute",
  describe: "execute",
  read_output: "read",
  grep_output: "read",
}
