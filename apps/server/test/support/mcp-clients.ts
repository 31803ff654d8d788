/**
 * MCP clients a real agent would use, connected to Switchboard: the SDK's own `Client` over streamable
 * HTTP (a real server on a loopback port) or over stdio (`switchboard mcp` as a child process).
 */
import { Cause, Effect } from "effect"
import { join } from "node:path"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { fixtureCommand } from "@switchboard/fixtures"
import { createHost } from "../../src/compose.js"
import { cliArgs } from "./built-cli.js"
import { memoryLogger, startTestServer, tempDir } from "./helpers.js"
import type { TestServer } from "./helpers.js"

export interface ConnectedClient {
  client: Client
  /** what the server side wrote to stderr (stdio only), for a failing test's message */
  stderr: () => string
  close(): Promise<void>
}

const contractSource = {
  namespace: "contract",
  kind: "mcp",
  transport: { type: "stdio", ...fixtureCommand("contract-stdio") },
}

export const newClient = () => new Client({ name: "switchboard-test-agent", version: "1.0.0" })

export interface ConnectOptions {
  /** the client to connect (default: one that declares no capability) */
  client?: Client
  /** policy rules the catalog holds before the client connects, as POST /v1/policies takes them */
  policies?: unknown[]
}

/** A real server with the contract fixture registered, reached at `${url}/mcp`. */
export const connectOverHttp = async ({
  client = newClient(),
  policies = [],
}: ConnectOptions = {}): Promise<ConnectedClient & { server: TestServer }> => {
  const server = await startTestServer({ allowStdio: true })
  const added = await server.request("POST", "/v1/sources", contractSource)
  if (added.status !== 201)
    throw new Error(`adding the contract source answered ${added.status}: ${JSON.stringify(added.body)}`)
  for (const policy of policies) {
    const made = await server.request("POST", "/v1/policies", policy)
    if (made.status !== 201) throw new Error(`adding a policy answered ${made.status}: ${JSON.stringify(made.body)}`)
  }
  await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)))
  return {
    client,
    server,
    stderr: () => "",
    async close() {
      await client.close()
      await server.stop()
    },
  }
}

/** `switchboard mcp` over a catalog that already has the contract fixture registered. */
export const connectOverStdio = async ({
  client = newClient(),
  policies = [],
}: ConnectOptions = {}): Promise<ConnectedClient & { db: string }> => {
  const dir = tempDir()
  const db = join(dir.dir, "catalog.db")
  const host = await createHost({ db, allowStdio: true, logger: memoryLogger().logger })
  const added = await Effect.runPromiseExit(host.sources.add(contractSource))
  const rules = await Promise.all(policies.map((policy) => host.policies.add(policy)))
  await host.close()
  if (added._tag === "Failure") throw new Error(`adding the contract source failed: ${Cause.pretty(added.cause)}`)
  const refused = rules.find((rule) => !rule.ok)
  if (refused && !refused.ok) throw new Error(`adding a policy failed: ${refused.error.message}`)

  const transport = new StdioClientTransport({
    command: process.execPath,
    // the built CLI, by absolute path: StdioClientTransport passes neither NODE_OPTIONS nor a cwd
    args: cliArgs(["mcp", "--db", db, "--allow-stdio"]),
    stderr: "pipe",
  })
  let stderr = ""
  transport.stderr?.on("data", (chunk: Buffer) => void (stderr += chunk.toString("utf8")))
  await client.connect(transport)
  return {
    client,
    db,
    stderr: () => stderr,
    async close() {
      await client.close()
      dir.remove()
    },
  }
}

/**
 * One raw `tools/call` of the `execute` tool at `${url}/mcp`, as a client without the SDK sends it: for what the
 * SDK's client would not do (hang up mid-call, send calls side by side without a session).
 */
export const postMcpExecute = (url: string, args: Record<string, unknown>, init: RequestInit = {}) =>
  fetch(`${url}/mcp`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "execute", arguments: args } }),
    ...init,
  })
