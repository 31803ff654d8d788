/**
 * A resolved call made upstream through its source's plugin, and the raw result decoded with the row's encoding
 * *before* anyone else (telemetry, shapes) sees it. A server that no longer knows a tool our catalog lists is
 * re-synced once, and the call made again if the tool is still listed.
 */
import type { CatalogStore } from "../catalog/rows.js"
import { decodeToolResult } from "../encodings/decode.js"
import { declaresData } from "../encodings/encoding.js"
import { outputSchemaMismatch } from "../encodings/output-schema-check.js"
import { ToolErrorCodes, errResult } from "../result.js"
import type { ToolResult } from "../result.js"
import type { RawInvokeResult, SourcePlugin } from "../seams.js"
import type { SourcesService } from "../sources/sources-service.js"
import { handleOf } from "../sources/source-view.js"
import { directOutcome } from "./call-outcome.js"
import type { CallOutcome, ResolvedTool } from "./call-outcome.js"
import type { Execution, ScriptCall } from "./execution.js"

export interface UpstreamCallOptions {
  store: Pick<CatalogStore, "getTool">
  sources: Pick<SourcesService, "ensureFresh" | "markStale" | "recordConnectFailure">
  plugins: readonly SourcePlugin[]
  /** `tool_not_found`, naming the closest paths (./discovery.ts) */
  notFound: (path: string, namespace: string | null) => Promise<ToolResult>
}

/** UTF-8 bytes of the data's JSON, counted without encoding a copy. */
const byteLength = (value: unknown): number | null => {
  const json = JSON.stringify(value)
  if (json === undefined) return null
  let bytes = json.length
  for (let i = 0; i < json.length; i++) {
    const c = json.charCodeAt(i)
    if (c >= 0x80) bytes += c >= 0x800 && (c < 0xd800 || c > 0xdfff) ? 2 : 1 // a surrogate pair counts 4 in all
  }
  return bytes
}

export const createUpstreamCall = ({ store, sources, plugins, notFound }: UpstreamCallOptions) => {
  const invokeRaw = (ctx: Execution, { source, tool }: ResolvedTool, args: unknown): Promise<RawInvokeResult> => {
    const plugin = plugins.find((p) => p.kind === source.kind)
    if (!plugin)
      return Promise.resolve({
        ok: false,
        code: ToolErrorCodes.internal,
        message: `no plugin for sources of kind "${source.kind}"`,
      })
    return plugin.invoke(handleOf(source), tool.name, args, {
      deadline: ctx.deadline,
      signal: ctx.signal,
      ...(tool.binding != null ? { binding: tool.binding } : {}),
    })
  }

  return async (ctx: Execution, { path, args: given }: ScriptCall, entry: ResolvedTool): Promise<CallOutcome> => {
    const args = given ?? {}
    let upstreamStarted = performance.now()
    let raw = await invokeRaw(ctx, entry, args)
    let { source, tool } = entry
    if (!raw.ok && raw.unknownTool) {
      sources.markStale(source.id)
      ctx.resolved.delete(path)
      source = await sources.ensureFresh(source)
      const relisted = await store.getTool(tool.namespace, tool.name)
      if (!relisted) return directOutcome(await notFound(path, tool.namespace))
      tool = relisted
      const again = { source, tool, policy: entry.policy }
      ctx.resolved.set(path, again)
      upstreamStarted = performance.now()
      raw = await invokeRaw(ctx, again, args)
    }
    const upstreamMs = performance.now() - upstreamStarted
    const encoding = tool.encoding
    // a source that cannot start (its file gone, its command not found) must not go on showing `ready`
    if (!raw.ok && raw.connectFailed) await sources.recordConnectFailure(source, raw.message)
    if (!raw.ok) {
      const result = errResult(raw.code, raw.message, raw.data !== undefined ? { data: raw.data } : undefined)
      return { result, encoding, source: source.namespace, upstreamMs }
    }
    const result = decodeToolResult(encoding, raw.raw, raw.meta)
    if (result.ok) ctx.observe(tool.id, encoding, result.data)
    const dataBytes = result.ok ? byteLength(result.data) : null
    // the declared schema types `data` under a stamp this build knows; an unstamped row's data is the raw envelope
    const outputSchemaError =
      result.ok && tool.outputSchema && declaresData(tool) ? outputSchemaMismatch(tool, result.data, dataBytes) : null
    return { result, outputSchemaError, dataBytes, encoding, source: source.namespace, upstreamMs }
  }
}
