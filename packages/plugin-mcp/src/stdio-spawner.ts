/**
 * Starting a stdio MCP server is the host's to give: only a host that can spawn processes has it (Node:
 * `StdioSpawner.node` from `@switchboard/plugin-mcp/node`). Without it a stdio source is refused like one this
 * server disables, and the plugin's main entry needs no Node API.
 */
import { Context } from "effect"
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js"
import type { StdoutOverflow } from "./stdout-reader.js"

export interface StdioServer {
  command: string
  args?: string[]
  env?: Record<string, string>
  cwd?: string
}

export interface StdioTransport extends Transport {
  /** why the transport closed the connection itself: the bound the server's stdout crossed */
  readonly overflow: StdoutOverflow | undefined
}

export interface StdioOptions {
  /** keys and elements a tools/call answer may hold; past it the answer is not parsed (../result-bound.ts) */
  maxToolResultNodes?: number
}

/** Starts `server` on `start()`; `onStderr` receives what it writes to stderr, as text. */
export type SpawnStdio = (
  server: StdioServer,
  onStderr: (text: string) => void,
  options?: StdioOptions,
) => StdioTransport

export class StdioSpawner extends Context.Service<StdioSpawner, SpawnStdio>()("@switchboard/plugin-mcp/StdioSpawner") {}
