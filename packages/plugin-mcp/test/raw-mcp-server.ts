/**
 * A streamable-HTTP MCP server written by hand, for tests that need one to misbehave in ways the SDK's server never
 * would: each POST's JSON-RPC message goes to `answer` with the response to write; any other method gets 405.
 */
import { createServer } from "node:http"
import type { ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import type { SourceHandle } from "@switchboard/core"

export interface RawMessage {
  id?: number
  method: string
  params?: { protocolVersion?: string }
}

/** initialize's answer, as a server with tools gives it */
export const initializeResult = (message: RawMessage, name: string) => ({
  protocolVersion: message.params?.protocolVersion,
  capabilities: { tools: {} },
  serverInfo: { name, version: "1.0.0" },
})

/** writes `result` as the JSON answer to `message` */
export const answerWith = (response: ServerResponse, message: RawMessage, result: unknown) =>
  response
    .writeHead(200, { "content-type": "application/json" })
    .end(JSON.stringify({ jsonrpc: "2.0", id: message.id, result }))

export const startRawMcpServer = async (answer: (message: RawMessage, response: ServerResponse) => void) => {
  const server = createServer((request, response) => {
    if (request.method !== "POST") return void response.writeHead(405).end()
    const parts: Buffer[] = []
    request.on("data", (part: Buffer) => parts.push(part))
    request.on("end", () => answer(JSON.parse(Buffer.concat(parts).toString("utf8")) as RawMessage, response))
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`,
    close: () => {
      server.closeAllConnections()
      return new Promise((resolve) => server.close(resolve))
    },
  }
}

/** an http source named `id` at `url` */
export const httpSource = (id: string, url: string): SourceHandle => ({
  id,
  namespace: id,
  kind: "mcp",
  config: { transport: { type: "http", url, headers: {} } },
})
