/**
 * Catalog (c)'s native side: the tools a native importer lists for GitHub's document (./github-openapi.ts), each call
 * the operation's HTTP request to the stand-in (path and query arguments where the operation puts them, the rest as
 * a JSON body), answered as an importer's MCP tool answers: the response body as it came, in one text block.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js"
import { listingTokens } from "./count.js"
import type { ListedOperation } from "./github-openapi.js"
import { callCost } from "./native.js"
import type { NativeSide } from "./native.js"

const requestOf = (tool: ListedOperation, args: Record<string, unknown>, baseUrl: string) => {
  const rest = { ...args }
  const query = new URLSearchParams()
  let path = tool.call.path
  for (const { name, in: where } of tool.call.params) {
    if (!(name in rest)) continue
    const value = rest[name]
    delete rest[name]
    const text = Array.isArray(value) ? value.join(",") : String(value)
    if (where === "path") path = path.replace(`{${name}}`, encodeURIComponent(text))
    else if (where === "query") query.set(name, text)
  }
  const search = query.size > 0 ? `?${query}` : ""
  const body = Object.keys(rest).length > 0 ? JSON.stringify(rest) : undefined
  return new Request(`${baseUrl}${path}${search}`, {
    method: tool.call.method.toUpperCase(),
    headers: { accept: "application/vnd.github+json", ...(body ? { "content-type": "application/json" } : {}) },
    body,
  })
}

export const githubNative = (tools: readonly ListedOperation[], namespace: string, baseUrl: string): NativeSide => {
  const byName = new Map(tools.map((tool) => [tool.name, tool]))
  return {
    tools: tools.length,
    listing: listingTokens(tools),
    async run({ path, args }) {
      const name = path.slice(path.indexOf(".") + 1)
      const tool = path.startsWith(`${namespace}.`) ? byName.get(name) : undefined
      if (!tool) throw new Error(`no listed operation ${path}`)
      const response = await fetch(requestOf(tool, args, baseUrl))
      const result: CallToolResult = {
        content: [{ type: "text", text: await response.text() }],
        ...(response.ok ? {} : { isError: true }),
      }
      return callCost(name, args, result)
    },
    close: async () => {},
  }
}
