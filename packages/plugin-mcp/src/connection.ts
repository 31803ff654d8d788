/**
 * One live MCP client session to a source, over stdio or streamable HTTP. The SDK's client is used for the
 * protocol (initialize, framing, cancellation) but never for result parsing: its strict schemas reject a
 * whole list or result for one odd part, so requests here take a permissive schema and core decodes.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js"
import type { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { boundedFetch } from "./bounded-fetch.js"
import { loadClientSdk, loadedClientSdk } from "./load-sdk.js"
import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js"
import type { CredentialSubject, SourceCredentials } from "@switchboard/core"
import type { McpTransportConfig } from "./config.js"
import { authorizedFetch } from "./oauth-fetch.js"
import { codeLoadingNames } from "./code-env.js"
import { codeLoadingEnv, findRefusal, stdioDisabled, stdioUnavailable } from "./refusal.js"
import type { SpawnStdio, StdioServer } from "./stdio-spawner.js"
import type { StdoutOverflow } from "./stdout-reader.js"

/** What this host lets a connection do. Checked here, where a process would be spawned or a request sent. */
export interface ConnectPolicy {
  /**
   * stdio sources run a command on this host: without this, every connect to one is refused before spawning.
   * `true` allows any; an object may allow only exact transports (`switchboard demo`'s own source) and env that
   * loads code (see StdioAllowance).
   */
  allowStdio: StdioAllowance
  /** the fetch every HTTP request of a source goes through (the host's egress guard); the global fetch when absent */
  fetch?: FetchLike
  /** the largest JSON response or stream event an http source may send (./bounded-fetch.ts; default 64 MiB) */
  maxMessageBytes?: number
  /** keys and elements a stdio source's tool result may hold (./result-bound.ts; default 50,000) */
  maxToolResultNodes?: number
  /** how this host starts a stdio server; a host without one (Workers) refuses stdio sources */
  spawnStdio?: SpawnStdio
  /** what a host without `spawnStdio` says of a stdio source (the Worker host names Workers); a neutral text by default */
  stdioUnavailableMessage?: string
  /** core's OAuth credentials, for http sources that log in (./oauth-fetch.ts); without them none does */
  credentials?: SourceCredentials
}

/**
 * Which stdio sources this host starts. `true`: any (`--allow-stdio`); `false`: none. An object allows `any`, or
 * only the transports in `exactly`, each matched whole (command, args, env and cwd: `switchboard demo`'s own
 * source, as the demo made it; any change to one makes it an ordinary stdio source). `codeEnv`: a source's env may
 * set variables that make its command load code (./code-env.ts; `--allow-stdio-code-env`), refused otherwise.
 */
export type StdioAllowance =
  | boolean
  | { readonly any?: boolean; readonly exactly?: readonly StdioServer[]; readonly codeEnv?: boolean }

const sameEnv = (a: Readonly<Record<string, string>> = {}, b: Readonly<Record<string, string>> = {}) => {
  const keys = Object.keys(a)
  return keys.length === Object.keys(b).length && keys.every((key) => Object.hasOwn(b, key) && a[key] === b[key])
}

/** the whole transport, as given: an allowance made for one transport covers no variation of it */
const sameServer = (allowed: StdioServer, transport: StdioServer) =>
  allowed.command === transport.command &&
  (allowed.args ?? []).length === (transport.args ?? []).length &&
  (allowed.args ?? []).every((arg, i) => arg === transport.args?.[i]) &&
  sameEnv(allowed.env, transport.env) &&
  (allowed.cwd ?? null) === (transport.cwd ?? null)

/** any stdio source, not only the exact transports an allowance names (whose paths are the host's own) */
export const allowsAnyStdio = (allowance: StdioAllowance | undefined): boolean =>
  typeof allowance === "boolean" ? allowance : allowance?.any === true

const stdioAllowed = (allowance: StdioAllowance, transport: StdioServer): boolean =>
  typeof allowance === "boolean"
    ? allowance
    : allowance.any === true || (allowance.exactly ?? []).some((allowed) => sameServer(allowed, transport))

export interface McpConnection {
  client: Client
  /** the last lines the server wrote to stderr, to explain a crash (raw: scrub before showing it) */
  stderrTail(): string
  /** false once the transport closed (the process died or the session ended) */
  isOpen(): boolean
  /** the bound a stdio server's stdout crossed, when that is why the connection closed */
  overflow(): StdoutOverflow | undefined
  /** what a failed request says about this connection's HTTP session (see `requestLoss`); null for stdio */
  lossOf(cause: unknown): RequestLoss | null
  close(): Promise<void>
}

export interface ConnectHandlers {
  /** the transport closed by itself (the server died or dropped us); never called for our own close() */
  onClose: () => void
  onToolsChanged: () => void
}

/** A connect attempt that failed, with what the server wrote to stderr meanwhile (raw: scrub before showing it). */
export class ConnectAttemptFailed extends Error {
  readonly _tag = "ConnectAttemptFailed"
  constructor(
    message: string,
    readonly stderr: string,
    options: { cause: unknown },
  ) {
    super(message, options)
  }
}

const STDERR_TAIL_BYTES = 4096

/** Ending a streamable-HTTP session is a courtesy to the server: it must not hold up a shutdown. */
const TERMINATE_SESSION_TIMEOUT_MS = 1_000

/**
 * How an HTTP request was lost, when it was:
 * - `session_gone`: the upstream answered 404 to our session id (the spec: such a request was not processed, and
 *   the client must start a new session), or 400 naming the session, which is what server-everything and
 *   servers built on the SDK's example code answer after a restart;
 * - `refused`: the connection was refused, so nothing was sent;
 * - `dropped`: the connection failed otherwise (reset, cut mid-answer): the request may have been processed.
 */
export type RequestLoss = "session_gone" | "refused" | "dropped"

const SESSION_WORD = /session/i

/** The SDK's error when it stops trying to resume an SSE stream (client/streamableHttp.js, `_scheduleReconnection`). */
const STREAM_GIVEN_UP = "Maximum reconnection attempts"

/** The system error code of a `fetch failed` (undici's shape, "" when it has none); null for anything else, and for a refusal. */
const networkCode = (cause: unknown): string | null => {
  if (!(cause instanceof TypeError) || cause.message !== "fetch failed" || findRefusal(cause)) return null
  const inner = (cause as { cause?: { code?: unknown } }).cause
  return typeof inner?.code === "string" ? inner.code : ""
}

/** the SDK's HTTP error (an answer with a status the transport does not take): only once a connection loaded it */
const isHttpError = (cause: unknown) => {
  const sdk = loadedClientSdk()
  return sdk !== undefined && cause instanceof sdk.StreamableHTTPError
}

export const requestLoss = (cause: unknown, hadSession: boolean): RequestLoss | null => {
  if (isHttpError(cause)) {
    const { code, message } = cause as { code?: number; message: string }
    const gone = code === 404 || (code === 400 && SESSION_WORD.test(message))
    return hadSession && gone ? "session_gone" : null
  }
  const code = networkCode(cause)
  if (code === null) return null
  return code === "ECONNREFUSED" ? "refused" : "dropped"
}

/** A failed handshake worth one more try: initialize changes nothing upstream, and a restarting server answers 5xx or not at all. */
export const handshakeRetryable = (cause: unknown): boolean =>
  (isHttpError(cause) && ((cause as { code?: number }).code ?? 0) >= 500) || networkCode(cause) !== null

export const clientInfo = { name: "switchboard", version: "0.1.0" }

/** Sends the session's DELETE (MCP spec, "Session Management"); a server that is gone or slow is not waited for. */
const terminateSession = async (wire: StreamableHTTPClientTransport) => {
  let timer: ReturnType<typeof setTimeout> | undefined
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, TERMINATE_SESSION_TIMEOUT_MS)
  })
  await Promise.race([wire.terminateSession().catch(() => undefined), timeout])
  if (timer !== undefined) clearTimeout(timer)
}

/**
 * The SDK's timeout covers the initialize request alone; the initialized notification after it is, over streamable
 * HTTP, a POST of its own that nothing bounds but the HTTP client's own timeouts (minutes). The whole handshake gets
 * `timeoutMs`; the caller closes the client when it loses, which aborts that POST.
 */
const connectWithin = (connecting: Promise<void>, timeoutMs: number) => {
  let timer: ReturnType<typeof setTimeout> | undefined
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`the MCP server did not finish connecting within ${timeoutMs} ms`)),
      timeoutMs,
    )
  })
  return Promise.race([connecting, late]).finally(() => {
    if (timer !== undefined) clearTimeout(timer)
  })
}

export const connect = async (
  transport: McpTransportConfig,
  handlers: ConnectHandlers,
  timeoutMs: number,
  policy: ConnectPolicy,
  /** the source, when it logs in with OAuth: its requests carry core's credentials */
  oauth?: CredentialSubject,
): Promise<McpConnection> => {
  // the one stdio gate: every path that would start a source (add, sync, lazy re-sync, a call; serve, run, mcp) comes here
  // a host that cannot start processes says so first: naming a flag it has no use for would mislead
  if (transport.type === "stdio" && !policy.spawnStdio) throw stdioUnavailable(policy.stdioUnavailableMessage)
  if (transport.type === "stdio" && !stdioAllowed(policy.allowStdio, transport)) throw stdioDisabled()
  if (transport.type === "stdio" && !(typeof policy.allowStdio === "object" && policy.allowStdio.codeEnv)) {
    const loaders = codeLoadingNames(transport.env)
    if (loaders.length > 0) throw codeLoadingEnv(loaders)
  }
  const { Client, CfWorkerJsonSchemaValidator, StreamableHTTPClientTransport, ToolListChangedNotificationSchema } =
    await loadClientSdk()
  // the SDK's default validator builds an Ajv per client and compiles schemas with `new Function`,
  // which Workers refuse; tool output is checked by core (encodings/output-schema-check.ts), not by this client
  const client = new Client(clientInfo, { capabilities: {}, jsonSchemaValidator: new CfWorkerJsonSchemaValidator() })
  let stderr = ""
  let open = true

  const stdio =
    transport.type === "stdio"
      ? policy.spawnStdio!(
          { command: transport.command, args: transport.args, env: transport.env, cwd: transport.cwd },
          (text) => {
            stderr = (stderr + text).slice(-STDERR_TAIL_BYTES)
          },
          { maxToolResultNodes: policy.maxToolResultNodes },
        )
      : undefined
  const wire =
    transport.type === "stdio"
      ? stdio!
      : new StreamableHTTPClientTransport(new URL(transport.url), {
          requestInit: { headers: transport.headers },
          fetch:
            oauth && policy.credentials
              ? authorizedFetch(boundedFetch(policy.fetch, policy.maxMessageBytes), policy.credentials, oauth)
              : boundedFetch(policy.fetch, policy.maxMessageBytes),
        })

  // The SDK fires onclose for our own close() too, and possibly after a successor connection took this one's
  // place; only a close we did not ask for is news to the pool.
  client.onclose = () => {
    const wasOpen = open
    open = false
    if (wasOpen) handlers.onClose()
  }
  // The SDK gives up a response stream it could not resume (the server died mid-answer) with this error, and leaves
  // the request waiting for its timeout: the session is lost, so the connection is closed and its requests fail now.
  client.onerror = (error) => {
    if (open && error.message.startsWith(STREAM_GIVEN_UP)) void client.close()
  }
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => handlers.onToolsChanged())

  try {
    await connectWithin(client.connect(wire, { timeout: timeoutMs }), timeoutMs)
    if (!open) throw new Error("the MCP server closed the connection right after initialize")
  } catch (cause) {
    open = false
    await client.close().catch(() => undefined)
    // a flood closes the connection, which the SDK reports as "Connection closed": the bound is the cause
    const failure = stdio?.overflow ?? cause
    throw new ConnectAttemptFailed(failure instanceof Error ? failure.message : String(failure), stderr.trim(), {
      cause: failure,
    })
  }
  return {
    client,
    stderrTail: () => stderr.trim(),
    isOpen: () => open,
    overflow: () => stdio?.overflow,
    lossOf: (cause) =>
      wire instanceof StreamableHTTPClientTransport ? requestLoss(cause, wire.sessionId !== undefined) : null,
    close: async () => {
      const wasOpen = open
      open = false
      if (wasOpen && wire instanceof StreamableHTTPClientTransport) await terminateSession(wire)
      await client.close().catch(() => undefined)
    },
  }
}
