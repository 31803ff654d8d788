/**
 * The host side of `tools.<ns>.<tool>(args)`: resolve the path against the catalog, call the source's
 * plugin, and decode the raw result with the row's encoding *before* anyone else (telemetry, shapes) sees it.
 * Every expected failure is a `{ ok: false }` value; nothing here rejects.
 */
import { decodeToolResult } from "../encodings/decode.js"
import { effectiveEncoding } from "../encodings/encoding.js"
import { internalError } from "../errors.js"
import type { Logger } from "../errors.js"
import { ToolErrorCodes, errResult } from "../result.js"
import type { ToolResult } from "../result.js"
import type { SourcePlugin, ToolCallRecord } from "../seams.js"
import type { CatalogStore, ToolRow } from "../catalog/rows.js"
import { handleOf } from "../catalog/sources-service.js"
import { closestNames } from "./suggest.js"

export interface ToolInvokerOptions {
  store: CatalogStore
  plugins: readonly SourcePlugin[]
  logger: Logger
  now?: () => number
}

export interface CallContext {
  executionId: string
  /** time left for the execution; a tool call may not outlive it */
  remainingMs: () => number
  signal?: AbortSignal
  record: (call: ToolCallRecord) => void
}

/** Splits `ns.tool` at the first dot: namespaces have none, tool names may. */
const splitPath = (path: string): { namespace: string; name: string } | null => {
  const dot = path.indexOf(".")
  return dot <= 0 || dot === path.length - 1 ? null : { namespace: path.slice(0, dot), name: path.slice(dot + 1) }
}

const byteLength = (value: unknown): number | null => {
  const json = JSON.stringify(value)
  return json === undefined ? null : new TextEncoder().encode(json).length
}

export const createToolInvoker = ({ store, plugins, logger, now = Date.now }: ToolInvokerOptions) => {
  const notFound = async (path: string): Promise<ToolResult> => {
    const parts = splitPath(path)
    const inNamespace = parts ? await store.toolPaths(parts.namespace) : []
    const candidates = inNamespace.length > 0 ? inNamespace : await store.toolPaths()
    const suggestions = closestNames(path, candidates)
    const hint = suggestions.length > 0 ? ` Did you mean ${suggestions.map((s) => `"${s}"`).join(", ")}?` : ""
    return errResult(ToolErrorCodes.toolNotFound, `no tool "${path}".${hint}`, { data: { suggestions } })
  }

  const callTool = async (tool: ToolRow, args: unknown, ctx: CallContext): Promise<ToolResult> => {
    const source = await store.getSource(tool.namespace)
    const plugin = source && plugins.find((p) => p.kind === source.kind)
    if (!source || !plugin) return errResult(ToolErrorCodes.toolNotFound, `the source of "${tool.path}" is gone`)
    const raw = await plugin.invoke(handleOf(source), tool.name, args, { timeoutMs: Math.max(1, ctx.remainingMs()), signal: ctx.signal })
    if (!raw.ok) return errResult(raw.code, raw.message)
    return decodeToolResult(tool.resultEncoding, raw.raw)
  }

  return async (path: string, args: unknown, ctx: CallContext): Promise<ToolResult> => {
    const startedAt = now()
    let encoding = "direct"
    let result: ToolResult
    try {
      const parts = splitPath(path)
      const tool = parts && (await store.getTool(parts.namespace, parts.name))
      if (!tool) result = await notFound(path)
      else {
        encoding = effectiveEncoding(tool.resultEncoding)
        result =
          args === undefined || (typeof args === "object" && args !== null && !Array.isArray(args))
            ? await callTool(tool, args ?? {}, ctx)
            : errResult(ToolErrorCodes.invalidArguments, `arguments to "${path}" must be an object, got ${Array.isArray(args) ? "an array" : typeof args}`)
      }
    } catch (cause) {
      result = errResult(ToolErrorCodes.internal, internalError(logger, `tool call ${path}`, cause).message)
    }
    ctx.record({
      executionId: ctx.executionId,
      toolPath: path,
      encoding,
      startedAt,
      durationMs: now() - startedAt,
      ok: result.ok,
      errorCode: result.ok ? null : result.error.code,
      dataBytes: result.ok ? byteLength(result.data) : null,
    })
    return result
  }
}

export type ToolInvoker = ReturnType<typeof createToolInvoker>
