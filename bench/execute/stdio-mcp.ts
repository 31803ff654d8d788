/** The stdio MCP figure: the contract fixture server, through Switchboard and directly over the SDK. */
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js"
import { fixtureCommand } from "@switchboard/fixtures"
import type { Host } from "@switchboard/server"
import { timeUs } from "./measure.js"

export const registerStdioSource = async (host: Host) => {
  const added = await host.sources.add({ namespace: "fx", kind: "mcp", transport: { type: "stdio", ...fixtureCommand("contract-stdio") } })
  if (!added.ok) throw new Error(`could not add the fixture source: ${added.error.message}`)
}

/** µs per call of `calls` sequential echo calls over one kept-open connection (median of `runs`). */
export const directMcpCallUs = async (calls: number, runs: number) => {
  const client = new Client({ name: "bench", version: "1.0.0" })
  await client.connect(new StdioClientTransport(fixtureCommand("contract-stdio")))
  const us = await timeUs(runs, async () => {
    for (let i = 0; i < calls; i++) await client.callTool({ name: "echo", arguments: { message: `m${i}` } })
  }, 3)
  await client.close()
  return us / calls
}
