/**
 * The Switchboard side: a real server on a loopback port (SQLite in a temp folder, the default worker pool) with
 * the catalog's sources registered, reached by the MCP SDK's client at /mcp as an agent reaches it.
 * Its model reads our tools/list and instructions, then each describe it asks, the script, and the result.
 */
import { join } from "node:path"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js"
import { startServer } from "@switchboard/server"
import { callTokens, listingTokens, resultText, tokensOf } from "./count.js"

/** A source as POST /v1/sources takes it: the namespace, the kind, and the kind's own config. */
export type SourceBody = { namespace: string; kind: string } & Record<string, unknown>

export interface SwitchboardCall {
  call: number
  answer: number
  text: string
  isError: boolean
}

export interface SwitchboardSide {
  listing: number
  describe(args: Record<string, unknown>): Promise<SwitchboardCall>
  execute(code: string): Promise<SwitchboardCall>
  close(): Promise<void>
}

const quiet = { error() {}, warn() {}, info() {} }

/** A rule as POST /v1/policies takes it: here, the operator's allowing a task's writes that would wait for a person. */
export interface PolicyRule {
  pattern: string
  action: "allow"
}

export const startSwitchboard = async (
  dir: string,
  sources: readonly SourceBody[],
  policies: readonly PolicyRule[] = [],
): Promise<SwitchboardSide> => {
  const server = await startServer({ db: join(dir, "catalog.db"), port: 0, logger: quiet, allowStdio: true })
  const client = new Client({ name: "switchboard-bench-agent", version: "1.0.0" })
  const post = async (path: string, body: unknown) => {
    const response = await fetch(`${server.url}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    })
    if (response.status !== 201) throw new Error(`POST ${path} answered ${response.status}: ${await response.text()}`)
  }
  try {
    for (const source of sources) await post("/v1/sources", source)
    for (const rule of policies) await post("/v1/policies", rule)
    await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)))
  } catch (error) {
    await server.close()
    throw error
  }
  const { tools } = await client.listTools()
  const call = async (name: string, args: Record<string, unknown>): Promise<SwitchboardCall> => {
    const result = (await client.callTool({ name, arguments: args })) as CallToolResult
    const text = resultText(result)
    return { call: callTokens(name, args), answer: tokensOf(text), text, isError: result.isError === true }
  }
  return {
    listing: listingTokens(tools, client.getInstructions()),
    describe: (args) => call("describe", args),
    execute: (code) => call("execute", { code }),
    async close() {
      await client.close()
      await server.close()
    },
  }
}
