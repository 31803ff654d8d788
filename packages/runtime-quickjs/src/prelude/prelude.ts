/**
 * Runs inside QuickJS before every script: defines `tools`, `console` and `emit`.
 * It is bundled once by scripts/build-prelude.mjs into prelude.generated.ts; never import it from host code.
 * The bundle is a script whose value is the function below; the host calls it once with its host functions,
 * which therefore never appear on the global object: the script reaches them only through these closures.
 * It sees only plain ECMAScript: QuickJS has no fetch, require, process or timers, and we add none.
 * QuickJS compiles it in every fresh context (about 0.3 µs per byte of minified source, and about 5 µs per
 * function on this machine), so it stays small, with few functions: reading results and errors, and
 * checking emitted blocks and tool arguments, is done by the host, and console's formatting (format.ts)
 * is compiled only when a run first logs.
 */
import type { ToolResult } from "@switchboard/core"
import { logLevels } from "./protocol.js"
import type { EmitHost, InvokeHost, LoadFormat, LogHost, Prelude } from "./protocol.js"

const prelude: Prelude = (invokeHost: InvokeHost, logHost: LogHost, emitHost: EmitHost, loadFormat: LoadFormat): void => {
  const globals = globalThis as unknown as Record<string, unknown>
  // Captured before the script runs, so a script that replaces JSON cannot change what crosses the bridge.
  const stringify = JSON.stringify
  const parse = JSON.parse

  /**
   * A JSON copy of a value, so the host never holds a reference into the sandbox. Without one (undefined, a
   * function, a symbol, a BigInt, a cycle, a throwing toJSON) `reason` says why.
   */
  const copy = (value: unknown): [json: string | undefined, reason: string] => {
    try {
      return [stringify(value), `got ${typeof value}`]
    } catch (error) {
      return [undefined, (error as Error).message]
    }
  }

  /**
   * The promise is the guest's own: the host keeps its resolve function and calls it with the result's JSON
   * (arguments without a JSON copy get an `invalid_arguments` result, and no tool is called).
   */
  const callTool = (path: string, args: unknown): Promise<ToolResult> =>
    new Promise<string>((resolve) => invokeHost(resolve, path, ...copy(args === undefined ? {} : args))).then(parse)

  /**
   * `then` and symbols resolve to undefined, so `await tools.ns` or `await tools.ns.tool` never calls the host.
   * A tool literally named `then` is therefore unreachable through the proxy.
   */
  const proxy = (get: (name: string) => unknown) =>
    new Proxy({}, { get: (_target, key) => (typeof key === "string" && key !== "then" ? get(key) : undefined) })

  /** Discovery from inside a script: the same TypeScript and ranking the describe API serves. */
  const describe = (paths: unknown) => callTool("$describe", { paths: Array.isArray(paths) ? paths : [paths] })
  const search = (query: unknown, limit: unknown) => callTool("$search", { query, limit })

  globals.tools = proxy((namespace) =>
    namespace === "$describe"
      ? describe
      : namespace === "$search"
        ? search
        : proxy((tool) => (args?: unknown) => callTool(`${namespace}.${tool}`, args)),
  )

  // format.ts, compiled by the host on the first console call of the run
  let format: ((value: unknown) => string) | undefined
  const console: Record<string, (...args: unknown[]) => void> = {}
  for (const level of logLevels) console[level] = (...args) => logHost(level, args.map((format ??= loadFormat(stringify))).join(" "))
  globals.console = console

  /**
   * `emit(block)` hands an MCP content block (an image, audio, text...) to the caller beside the result. The
   * host keeps a JSON copy and checks it; a value that is not a block is a TypeError here, in the script.
   */
  globals.emit = (block: unknown): void => {
    const problem = emitHost(...copy(block))
    if (problem) throw new TypeError(problem)
  }
}

export default prelude
