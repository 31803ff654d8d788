/** The stdio MCP figure: the contract fixture server, through Switchboard and directly over the SDK. */
import { Effect } from "effect"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js"
import { fixtureCommand } from "@switchboard/fixtures"
import type { Host } from "@switchboard/server"

export const registerStdioSource = async (host: Host) => {
  await Effect.runPromise(
    host.sources.add({
      namespace: "fx",
      kind: "mcp",
      transport: { type: "stdio", ...fixtureCommand("contract-stdio") },
    }),
  )
}

/** The same fixture server over one kept-open SDK connection: `calls` sequential echo calls per `round()`. */
export const openDirectMcp = async (calls: number) => {
  const client = new Client({ name: "bench", version: "1.0.0" })
  await client.connect(new StdioClientTransport(fixtureCommand("contract-stdio")))
  return {
    round: async () => {
      for (let i = 0; i < calls; i++) await client.callTool({ name: "echo", arguments: { message: `m${i}` } })
    },
    close: () => client.close(),
  }
}
