/**
 * Runs inside QuickJS before every script: defines `tools` and `console`, then hides the host functions.
 * It is bundled once by scripts/build-prelude.mjs into prelude.generated.ts; never import it from host code.
 * Everything here sees only plain ECMAScript: QuickJS has no fetch, require, process or timers, and we add none.
 */
import type { ToolResult } from "@switchboard/core"
import { HostFunctionNames, logLevels } from "./protocol.js"
import type { ErrorDescription, LogLevel, PreludeInternals } from "./protocol.js"

type InvokeHost = (path: string, argsJson: string) => Promise<string>
type LogHost = (level: LogLevel, text: string) => void
type ExposeHost = (internals: PreludeInternals) => void

const globals = globalThis as unknown as Record<string, unknown>

/** Takes a host function off the global object so the script can only reach it through our closures. */
const take = <T>(name: string): T => {
  const value = globals[name] as T
  delete globals[name]
  return value
}

const invokeHost = take<InvokeHost>(HostFunctionNames.invoke)
const logHost = take<LogHost>(HostFunctionNames.log)
const exposeHost = take<ExposeHost>(HostFunctionNames.expose)

// Captured before the script runs, so a script that replaces JSON or String cannot corrupt what the host reads.
const stringify = JSON.stringify
const parse = JSON.parse
const toText = String
const ErrorClass = Error

const describeFailure = (error: unknown): string => {
  try {
    if (error instanceof ErrorClass) return toText(error.message)
    return toText(error)
  } catch {
    return "unknown error"
  }
}

const invalidArguments = (path: string, reason: string): ToolResult => ({
  ok: false,
  error: { code: "invalid_arguments", message: `arguments for ${path} must be JSON-serializable: ${reason}` },
})

const callTool = (path: string, args: unknown): Promise<ToolResult> => {
  let argsJson: string | undefined
  try {
    // JSON copies the arguments, so the host never holds a reference into the sandbox.
    argsJson = stringify(args === undefined ? {} : args)
  } catch (error) {
    return Promise.resolve(invalidArguments(path, describeFailure(error)))
  }
  if (argsJson === undefined) return Promise.resolve(invalidArguments(path, `got ${typeof args}`))
  return invokeHost(path, argsJson).then((resultJson) => parse(resultJson) as ToolResult)
}

/**
 * `then` and symbols resolve to undefined, so `await tools.ns` or `await tools.ns.tool` never calls the host.
 * A tool literally named `then` is therefore unreachable through the proxy.
 */
const isToolKey = (key: string | symbol): key is string => typeof key === "string" && key !== "then"

const readOnly = { set: () => false, defineProperty: () => false, deleteProperty: () => false }

const namespaceProxy = (namespace: string) =>
  new Proxy(Object.create(null) as object, {
    ...readOnly,
    get: (_target, tool) =>
      isToolKey(tool) ? (args?: unknown) => callTool(`${namespace}.${tool}`, args) : undefined,
  })

const tools = new Proxy(Object.create(null) as object, {
  ...readOnly,
  get: (_target, namespace) => (isToolKey(namespace) ? namespaceProxy(namespace) : undefined),
})

const formatValue = (value: unknown): string => {
  if (typeof value === "string") return value
  if (value === undefined) return "undefined"
  if (typeof value === "function") return `[Function ${value.name || "(anonymous)"}]`
  if (typeof value === "bigint") return `${value}n`
  if (typeof value === "symbol") return value.toString()
  try {
    if (value instanceof ErrorClass) {
      const head = `${value.name}: ${value.message}`
      return value.stack ? `${head}\n${value.stack.trimEnd()}` : head
    }
    const json = stringify(value)
    if (json !== undefined) return json
  } catch {
    // a cycle, a BigInt inside, or a throwing toJSON: fall back to String()
  }
  try {
    return toText(value)
  } catch {
    return "[unprintable value]"
  }
}

const console: Record<LogLevel, (...args: unknown[]) => void> = Object.create(null)
for (const level of logLevels) {
  console[level] = (...args: unknown[]) => logHost(level, args.map(formatValue).join(" "))
}

const define = (name: string, value: unknown) =>
  Object.defineProperty(globalThis, name, { value, writable: false, enumerable: false, configurable: false })
define("tools", tools)
define("console", Object.freeze(console))

const describeError = (error: unknown): string => {
  let description: ErrorDescription
  try {
    if (error instanceof ErrorClass || (typeof error === "object" && error !== null && typeof (error as Error).message === "string")) {
      const { name, message, stack } = error as Error
      description = { isError: true, name: typeof name === "string" ? name : "Error", message: toText(message) }
      // the host reads only the first frame in the script; a stack overflow would carry thousands
      if (typeof stack === "string") description.stack = stack.split("\n", 20).join("\n")
    } else {
      description = { isError: false, name: typeof error, message: formatValue(error) }
    }
  } catch (failure) {
    description = { isError: false, name: "unknown", message: `the thrown value could not be read: ${describeFailure(failure)}` }
  }
  return stringify(description)
}

const serializeResult = (value: unknown, maxUnits: number): string | number | undefined => {
  if (typeof value === "function" || typeof value === "symbol") {
    throw new TypeError(`a ${typeof value} cannot be serialized as JSON`)
  }
  const text = stringify(value) as string | undefined
  if (text === undefined) return undefined
  return text.length > maxUnits ? text.length : text
}

exposeHost({ serializeResult, describeError })
