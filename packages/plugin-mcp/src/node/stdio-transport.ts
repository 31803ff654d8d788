/**
 * The client side of the stdio transport, with stdout read within bounds (../stdout-reader.ts). It replaces the
 * SDK's StdioClientTransport, whose reading cannot be bounded from outside (its buffer and its process are
 * private). Spawning follows the SDK's: its default environment under the source's env, no shell, stderr piped.
 * Unlike the SDK it uses Node's own spawn, not cross-spawn: a Windows host would need the full path of a command.
 */
import { spawn } from "node:child_process"
import type { ChildProcess } from "node:child_process"
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js"
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js"
import { DEFAULT_MAX_TOOL_RESULT_NODES, toolResultTooLarge } from "../result-bound.js"
import { createStdoutReader, DEFAULT_STDOUT_LIMITS } from "../stdout-reader.js"
import type { ResultBound, StdoutLimits, StdoutOverflow } from "../stdout-reader.js"
import type * as StdioSdk from "./stdio-sdk.js"

let stdioSdk: Promise<typeof StdioSdk> | undefined
/** the SDK's stdio helpers, loaded by the first server started (a host that runs none never loads them) */
const loadStdioSdk = () => (stdioSdk ??= import("./stdio-sdk.js"))

export interface StdioServer {
  command: string
  args?: string[]
  env?: Record<string, string>
  cwd?: string
}

/** Reading stdout yields the main thread after this much work in a row, so other requests are served meanwhile. */
const YIELD_AFTER_MS = 10
/** What is parsed between two looks at the clock: about 60 small messages, or a sliver of a large one. */
const SLICE_BYTES = 4_096
/** How long a server gets after its stdin ends, and then after SIGTERM, before the next step (the SDK's values). */
const EXIT_GRACE_MS = 2_000

const exited = (child: ChildProcess, ms: number) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve()
    const timer = setTimeout(resolve, ms)
    timer.unref()
    child.once("exit", () => {
      clearTimeout(timer)
      resolve()
    })
  })

/** Ends a server: stdin closed first (the spec's shutdown), then SIGTERM, then SIGKILL, each after a grace period. */
const stop = async (child: ChildProcess, polite: boolean) => {
  if (polite) {
    child.stdin?.end()
    await exited(child, EXIT_GRACE_MS)
  }
  if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM")
  await exited(child, EXIT_GRACE_MS)
  if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL")
}

export class BoundedStdioTransport implements Transport {
  onclose?: () => void
  onerror?: (error: Error) => void
  onmessage?: (message: JSONRPCMessage) => void
  /** why this transport closed the connection itself: the bound the server's stdout crossed */
  overflow: StdoutOverflow | undefined
  private child: ChildProcess | undefined
  private closed = false
  private started = false
  /** stdin holds this turn's messages until its end (corkForThisTurn) */
  private corked = false
  private sdk: typeof StdioSdk | undefined
  /** the ids of the tools/call requests awaiting their answer: only those answers are bounded by their count */
  private readonly toolCalls = new Set<string | number>()
  private readonly resultBound: ResultBound

  constructor(
    private readonly server: StdioServer,
    private readonly onStderr: (chunk: Buffer) => void,
    private readonly limits: StdoutLimits = DEFAULT_STDOUT_LIMITS,
    maxToolResultNodes = DEFAULT_MAX_TOOL_RESULT_NODES,
  ) {
    this.resultBound = {
      maxNodes: maxToolResultNodes,
      applies: (id) => this.toolCalls.has(id),
      refuse: (id, nodes) => toolResultTooLarge(id, nodes, maxToolResultNodes),
    }
  }

  async start(): Promise<void> {
    // set before the SDK is awaited: a second start meanwhile is refused, not a second process
    if (this.started) throw new Error("BoundedStdioTransport already started")
    this.started = true
    const sdk = await loadStdioSdk()
    // closed while the SDK loaded: nothing may be spawned that no one would stop
    if (this.closed) throw new Error("the connection was closed before its server started")
    this.sdk = sdk
    return new Promise((resolve, reject) => {
      const child = spawn(this.server.command, this.server.args ?? [], {
        env: { ...sdk.getDefaultEnvironment(), ...this.server.env },
        cwd: this.server.cwd,
        stdio: ["pipe", "pipe", "pipe"],
        shell: false,
      })
      this.child = child
      child.on("error", (error) => {
        reject(error)
        this.onerror?.(error)
      })
      child.on("spawn", () => resolve())
      child.on("close", () => this.closedBy())
      child.stdin?.on("error", (error) => this.onerror?.(error))
      child.stderr?.on("data", this.onStderr)
      this.read(child, sdk.deserializeMessage)
    })
  }

  /**
   * Reads stdout in slices, yielding after `YIELD_AFTER_MS` of work: one 64 KiB chunk of small messages is
   * hundreds of messages for the SDK's client to handle, too much for one turn of the event loop.
   */
  private read(child: ChildProcess, deserialize: typeof StdioSdk.deserializeMessage) {
    const stdout = child.stdout!
    const answered = (message: JSONRPCMessage) => {
      if ("id" in message && !("method" in message) && message.id !== undefined) this.toolCalls.delete(message.id)
      this.onmessage?.(message)
    }
    const reader = createStdoutReader(answered, deserialize, this.limits, Date.now, this.resultBound)
    const queue: Buffer[] = []
    let waiting = false
    const drain = () => {
      waiting = false
      const started = performance.now()
      while (queue.length > 0 && !this.overflow) {
        const chunk = queue[0]!
        if (chunk.length <= SLICE_BYTES) queue.shift()
        else queue[0] = chunk.subarray(SLICE_BYTES)
        const overflow = reader.push(chunk.subarray(0, SLICE_BYTES))
        if (overflow) return this.fail(child, overflow)
        if (queue.length > 0 && performance.now() - started >= YIELD_AFTER_MS) {
          stdout.pause()
          waiting = true
          return void setImmediate(drain)
        }
      }
      stdout.resume()
    }
    stdout.on("data", (chunk: Buffer) => {
      if (this.overflow) return
      queue.push(chunk)
      if (!waiting) drain()
    })
    stdout.on("error", (error) => this.onerror?.(error))
  }

  /** A server past a bound is not read any further, nor waited for: the connection closes now, the process is ended behind it. */
  private fail(child: ChildProcess, overflow: StdoutOverflow) {
    this.overflow = overflow
    child.stdout?.destroy()
    this.onerror?.(overflow)
    void stop(child, false)
    this.closedBy()
  }

  private closedBy() {
    if (this.closed) return
    this.closed = true
    this.child = undefined
    this.onclose?.()
  }

  async close(): Promise<void> {
    const child = this.child
    if (!child) {
      // not spawned yet (a start awaiting the SDK sees this and spawns nothing), or already gone
      this.closed = true
      return
    }
    this.child = undefined
    await stop(child, true)
    this.closedBy()
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin
    const sdk = this.sdk
    if (!stdin || !sdk) return Promise.reject(new Error("Not connected"))
    if ("method" in message && message.method === "tools/call" && "id" in message) this.toolCalls.add(message.id)
    this.corkForThisTurn(stdin)
    return new Promise((resolve) => {
      if (stdin.write(sdk.serializeMessage(message))) resolve()
      else stdin.once("drain", resolve)
    })
  }

  /**
   * The messages sent in one turn of the event loop go to the pipe in one write: a script's calls at once
   * (`Promise.all`) would otherwise cost a system call each. The turn's I/O callbacks run before `setImmediate`,
   * so a lone message waits for nothing but the rest of the turn.
   */
  private corkForThisTurn(stdin: NonNullable<ChildProcess["stdin"]>) {
    if (this.corked) return
    this.corked = true
    stdin.cork()
    setImmediate(() => {
      this.corked = false
      stdin.uncork()
    })
  }
}
