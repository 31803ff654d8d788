/**
 * Runs inside QuickJS: makes the `tools` global, on the script's first read of it (sandbox-globals.ts).
 * Bundled by scripts/build-prelude.mjs into dist/prelude.js; never import it from host code.
 * QuickJS compiles it in the run's context, at a cost per byte and per function, so it stays small, with few
 * functions: reading results and errors, and checking tool arguments, is done by the host.
 */
import type { ToolResult } from "@switchboard/core"
import { copy } from "./copy.js"
import type { MakeTools } from "./protocol.js"

const makeTools: MakeTools = (invokeHost, stringify, parse) => {
  /**
   * The promise is the guest's own: the host keeps its resolve function and calls it with the result's JSON
   * (arguments without a JSON copy get an `invalid_arguments` result, and no tool is called).
   */
  const callTool = (path: string, args: unknown): Promise<ToolResult> =>
    new Promise<string>((resolve) => {
      // indexed, not destructured: destructuring runs the array iterator, on every call
      const copied = copy(stringify, args === undefined ? {} : args)
      const json = copied[0]
      invokeHost(resolve, path, json, json === undefined ? copied[1] : path.length + json.length)
    }).then(parse)

  /**
   * `then` and symbols resolve to undefined, so `await tools.ns` or `await tools.ns.tool` never calls the host.
   * A tool literally named `then` is therefore unreachable through the proxy.
   */
  const proxy = (get: (name: string) => unknown) =>
    new Proxy({}, { get: (_target, key) => (typeof key === "string" && key !== "then" ? get(key) : undefined) })

  /** Discovery from inside a script: the same TypeScript and ranking the describe API serves. */
  const describe = (paths: unknown, fields: unknown) =>
    callTool("$describe", { paths: Array.isArray(paths) ? paths : [paths], fields })
  const search = (query: unknown, limit: unknown) => callTool("$search", { query, limit })

  // each namespace's proxy and each tool's function is made once: a script calls the same tools in a loop
  const namespace = (name: string) => {
    const functions: Record<string, unknown> = { __proto__: null }
    return proxy((tool) => (functions[tool] ??= (args?: unknown) => callTool(`${name}.${tool}`, args)))
  }
  const namespaces: Record<string, unknown> = { __proto__: null, $describe: describe, $search: search }
  return proxy((name) => (namespaces[name] ??= namespace(name)))
}

export default makeTools
