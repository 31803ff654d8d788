/**
 * Runs inside QuickJS before every script: defines `tools` and `console`, then hides the host functions.
 * It is bundled once by scripts/build-prelude.mjs into prelude.generated.ts; never import it from host code.
 * It sees only plain ECMAScript: QuickJS has no fetch, require, process or timers, and we add none.
 * QuickJS parses it on every run (about 0.2 µs per byte of source), so it stays small: reading results
 * and errors is done by the host.
 */
import type { ToolResult } from "@switchboard/core"
import { invokeFunctionName, logFunctionName, logLevels } from "./protocol.js"
import type { LogLevel } from "./protocol.js"

type InvokeHost = (path: string, argsJson: string) => Promise<string>
type LogHost = (level: LogLevel, text: string) => void

const globals = globalThis as unknown as Record<string, unknown>

/** Takes a host function off the global object so the script can only reach it through our closures. */
const take = <T>(name: string): T => {
  const value = globals[name] as T
  delete globals[name]
  return value
}

const invokeHost = take<InvokeHost>(invokeFunctionName)
const logHost = take<LogHost>(logFunctionName)

// Captured before the script runs, so a script that replaces JSON cannot change what crosses the bridge.
const stringify = JSON.stringify
const parse = JSON.parse

const callTool = (path: string, args: unknown): Promise<ToolResult> => {
  let argsJson: string | undefined
  let reason = `got ${typeof args}`
  try {
    // JSON copies the arguments, so the host never holds a reference into the sandbox.
    argsJson = stringify(args === undefined ? {} : args)
  } catch (error) {
    reason = (error as Error).message
  }
  if (argsJson === undefined) {
    const message = `arguments for ${path} must be JSON-serializable: ${reason}`
    return Promise.resolve({ ok: false, error: { code: "invalid_arguments", message } })
  }
  return invokeHost(path, argsJson).then(parse)
}

/**
 * `then` and symbols resolve to undefined, so `await tools.ns` or `await tools.ns.tool` never calls the host.
 * A tool literally named `then` is therefore unreachable through the proxy.
 */
const isName = (key: string | symbol): key is string => typeof key === "string" && key !== "then"

const proxy = (get: (name: string) => unknown) => new Proxy({}, { get: (_target, key) => (isName(key) ? get(key) : undefined) })

/** Discovery from inside a script: the same TypeScript and ranking the describe API serves. */
// no prototype: `tools.constructor` must stay a namespace, not Object
const discovery: Record<string, (...args: unknown[]) => Promise<ToolResult>> = Object.assign(Object.create(null), {
  $describe: (paths: unknown) => callTool("$describe", { paths: Array.isArray(paths) ? paths : [paths] }),
  $search: (query: unknown, limit: unknown) => callTool("$search", { query, limit }),
})

globals.tools = proxy((namespace) => discovery[namespace] ?? proxy((tool) => (args?: unknown) => callTool(`${namespace}.${tool}`, args)))

/** Roughly what Node prints: strings as they are, errors with their stack, other values as JSON. */
const format = (value: unknown): string => {
  if (typeof value === "string") return value
  try {
    if (value instanceof Error) return `${value.name}: ${value.message}\n${value.stack ?? ""}`.trimEnd()
    if (typeof value === "object" && value) return stringify(value)
    if (typeof value === "bigint") return `${value}n`
    if (typeof value === "function") return `[Function ${value.name || "(anonymous)"}]`
  } catch {
    // a cycle or a throwing toJSON: String() below
  }
  try {
    return String(value)
  } catch {
    return "[unprintable]"
  }
}

const console: Record<string, (...args: unknown[]) => void> = {}
for (const level of logLevels) console[level] = (...args) => logHost(level, args.map(format).join(" "))
globals.console = console
