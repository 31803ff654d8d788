/**
 * `switchboard mcp`: the same MCP server as `/mcp`, over stdio. stdout carries protocol messages only, so
 * logs go to stderr and stray console output is sent there too.
 */
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js"
import { createMcpServer } from "@switchboard/api/mcp"
import { createHost } from "../compose.js"
import type { HostOptions } from "../compose.js"

/** A library that prints with console.log would corrupt the protocol stream: send it to stderr. */
const keepStdoutForProtocol = () => {
  const toStderr = (...args: unknown[]) => console.error(...args)
  console.log = toStderr
  console.info = toStderr
  console.debug = toStderr
}

export const serveMcpStdio = async (options: HostOptions) => {
  keepStdoutForProtocol()
  const host = await createHost(options)
  const server = createMcpServer(host)
  let closing: Promise<void> | undefined
  const close = () =>
    (closing ??= (async () => {
      await server.close()
      await host.close()
    })())
  // the SDK's stdio transport does not watch for the end of stdin: a client that goes away ends us
  const ended = new Promise<void>((resolve) => {
    process.stdin.once("end", resolve)
    process.stdin.once("close", resolve)
  }).then(close)
  await server.connect(new StdioServerTransport())
  /** `ended` settles once stdin has ended and everything is closed */
  return { host, close, ended }
}
