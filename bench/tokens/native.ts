/**
 * The native side: an MCP client connected to each server directly, as a client without code mode is. Its model
 * reads every server's tools/list (and instructions), then each call it makes and each result as the SDK returns it.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js"
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js"
import { callTokens, envelopeTokens, listingTokens, textTokens } from "./count.js"
import type { Upstream } from "./upstreams.js"

export interface NativeCall {
  /** namespace.tool: which server, and the tool's own name there */
  path: string
  args: Record<string, unknown>
}

export interface NativeCallCost {
  call: number
  /** the result with its envelope, as the SDK returns it */
  result: number
  /** the result's text blocks alone, for comparison */
  resultText: number
  isError: boolean
  /** what the SDK returned, for the next call's arguments */
  returned: CallToolResult
}

export interface NativeSide {
  tools: number
  listing: number
  run(call: NativeCall): Promise<NativeCallCost>
  close(): Promise<void>
}

/** What one direct call puts before the model: the call it writes, and the result as the SDK returns it. */
export const callCost = (name: string, args: Record<string, unknown>, result: CallToolResult): NativeCallCost => ({
  call: callTokens(name, args),
  result: envelopeTokens(result),
  resultText: textTokens(result),
  isError: result.isError === true,
  returned: result,
})

export const connectNative = async (upstreams: readonly Upstream[]): Promise<NativeSide> => {
  const clients = new Map<string, Client>()
  let tools = 0
  let listing = 0
  try {
    for (const { namespace, command, args, env } of upstreams) {
      const client = new Client({ name: "switchboard-bench-native", version: "1.0.0" })
      clients.set(namespace, client)
      await client.connect(new StdioClientTransport({ command, args, env, stderr: "ignore" }))
      const listed: Tool[] = []
      let cursor: string | undefined
      do {
        const page = await client.listTools(cursor ? { cursor } : {})
        listed.push(...page.tools)
        cursor = page.nextCursor
      } while (cursor)
      tools += listed.length
      listing += listingTokens(listed, client.getInstructions())
    }
  } catch (error) {
    await Promise.all([...clients.values()].map((client) => client.close()))
    throw error
  }
  return {
    tools,
    listing,
    async run({ path, args }) {
      const dot = path.indexOf(".")
      const client = clients.get(path.slice(0, dot))
      if (!client) throw new Error(`no native server for ${path}`)
      const name = path.slice(dot + 1)
      return callCost(name, args, (await client.callTool({ name, arguments: args })) as CallToolResult)
    },
    close: async () => void (await Promise.all([...clients.values()].map((client) => client.close()))),
  }
}
