/**
 * Starting a stdio MCP server is the host's to give: only a host that can spawn processes has it (Node:
 * `nodeStdioLayer` from `@switchboard/plugin-mcp/node`). Without it a stdio source is refused like one this
 * server disables, and the plugin's main entry needs no Node API. Such a host also knows its files: `StdioPaths`
 * makes a server's relative paths absolute and checks them when its source is added or changed.
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

/** A server with its relative paths made absolute, or what of it is not there (each field named, with its path). */
export type PinnedStdio<S extends StdioServer = StdioServer> = { ok: true; server: S } | { ok: false; message: string }

/** What a host does with a stdio server when its source is added or changed (Node: `pinNodeStdio`). */
export type PinStdio = <S extends StdioServer>(server: S) => PinnedStdio<S>

export class StdioPaths extends Context.Service<StdioPaths, PinStdio>()("@switchboard/plugin-mcp/StdioPaths") {}
