/**
 * The host side of `tools.<ns>.<tool>(args)`: resolve the path against a fresh catalog, call the source's
 * plugin, and decode the raw result with the row's encoding *before* anyone else (telemetry, shapes) sees it.
 * Every expected failure is a `{ ok: false }` value; nothing here rejects. Shared by the executor's executions:
 * each call is made for one Execution (./execution.ts), which records it, and is its `invoke`.
 */
import { decodeToolResult } from "../encodings/decode.js"
import { ResultEncodings, declaresData } from "../encodings/encoding.js"
import { internalError } from "../errors.js"
import { isRecord } from "../is-record.js"
import type { Logger } from "../errors.js"
import { ToolErrorCodes, errResult } from "../result.js"
import type { ToolResult } from "../result.js"
import { noopMetrics } from "../seams.js"
import type { MetricsSink, RawInvokeResult, SourcePlugin } from "../seams.js"
import type { CatalogStore, SourceRow, ToolRow } from "../catalog/rows.js"
import { splitToolPath } from "../catalog/tool-path.js"
import { handleOf } from "../sources/sources-service.js"
import type { SourcesService } from "../sources/sources-service.js"
import { outputSchemaMismatch } from "../encodings/output-schema-check.js"
import { createArgumentCheck } from "./argument-check.js"
import { createDiscovery } from "./discovery.js"
import { endSpan, startToolCallSpan } from "./tracing.js"
import type { Execution, ScriptCall } from "./execution.js"
import type { EffectivePolicy, PolicyDecider } from "../policy/policy.js"

export interface ToolInvokerOptions {
  store: CatalogStore
  sources: Pick<SourcesService, "ensureFresh" | "markStale" | "recordConnectFailure">
  plugins: readonly SourcePlugin[]
  logger: Logger
  /** the rules each call is checked against, after it resolves and before it reaches a source */
  policies: PolicyDecider
  metrics?: MetricsSink
  now?: () => number
}

/**
 * What one call came to: the result and, for telemetry, the encoding it was decoded under, the source the path
 * resolved to and the time that source's plugin took (upstream).
 */
interface CallOutcome {
  result: ToolResult
  encoding: string
  outputSchemaError?: string | null
  dataBytes?: number | null
  source?: string
  upstreamMs?: number
}

/** The source and tool row a path resolved to. */
interface Resolved {
  source: SourceRow
  tool: ToolRow
}

/** A call that needs a person's decision first: it was not made. */
interface PauseOutcome {
  pause: EffectivePolicy
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

/** A tool call span's attributes: sizes and encodings, never the arguments or the data. */
const spanAttributes = ({ encoding, source, dataBytes, upstreamMs }: CallOutcome) => {
  const attributes: Record<string, string | number> = { "switchboard.tool.encoding": encoding }
  if (source !== undefined) attributes["switchboard.tool.source"] = source
  if (dataBytes !== undefined && dataBytes !== null) attributes["switchboard.tool.data_bytes"] = dataBytes
  if (upstreamMs !== undefined) attributes["switchboard.tool.upstream_ms"] = upstreamMs
  return attributes
}

const isPlainArgs = (args: unknown) => args === undefined || isRecord(args)

export const createToolInvoker = ({
  store,
  sources,
  plugins,
  logger,
  policies,
  metrics = noopMetrics,
  now = Date.now,
}: ToolInvokerOptions) => {
  const { discover, notFound } = createDiscovery({ store, policies })
  const checkArguments = createArgumentCheck(logger)

  const invokeRaw = (ctx: Execution, { source, tool }: Resolved, args: unknown): Promise<RawInvokeResult> => {
    const plugin = plugins.find((p) => p.kind === source.kind)
    if (!plugin)
      return Promise.resolve({
        ok: false,
        code: ToolErrorCodes.internal,
        message: `no plugin for sources of kind "${source.kind}"`,
      })
    return plugin.invoke(handleOf(source), tool.name, args, {
      timeoutMs: Math.max(1, ctx.remainingMs()),
      signal: ctx.signal,
      ...(tool.binding != null ? { binding: tool.binding } : {}),
    })
  }

  /** A `blocked` call's result: the rule that matched rides in `error.data`. */
  const blocked = (path: string, policy: EffectivePolicy) =>
    errResult(ToolErrorCodes.blocked, `${path} is blocked by policy: ${policy.reason}`, {
      data: { rule: policy.rule },
    })

  const resolveAndCall = async (
    ctx: Execution,
    { index, path, args }: ScriptCall,
  ): Promise<CallOutcome | PauseOutcome> => {
    if (path.startsWith("$")) {
      const discovered = await discover(path, args)
      if (discovered) return { result: discovered, encoding: ResultEncodings.direct }
    }
    const parts = splitToolPath(path)
    if (!parts) return { result: await notFound(path, null), encoding: ResultEncodings.direct }
    let entry = ctx.resolved.get(path)
    if (!entry) {
      const stored = await store.getSource(parts.namespace)
      if (!stored) return { result: await notFound(path, null), encoding: ResultEncodings.direct }
      const fresh = await sources.ensureFresh(stored)
      const found = await store.getTool(parts.namespace, parts.name)
      if (!found) return { result: await notFound(path, parts.namespace), encoding: ResultEncodings.direct }
      const policy = await policies.decide({ path, namespace: fresh.namespace, annotations: found.annotations })
      entry = { source: fresh, tool: found, policy }
      ctx.resolved.set(path, entry)
    }
    let { source, tool } = entry
    const { policy } = entry
    if (policy.action === "block")
      return {
        result: blocked(path, policy),
        encoding: tool.encoding,
        source: source.namespace,
      }
    // a call that cannot run whatever a person decides fails now: nobody is asked to approve it
    if (source.secretsError)
      return {
        result: errResult(ToolErrorCodes.sourceSecretsUnreadable, source.secretsError),
        encoding: tool.encoding,
        source: source.namespace,
      }
    if (!isPlainArgs(args)) {
      const got = Array.isArray(args) ? "an array" : args === null ? "null" : typeof args
      return {
        result: errResult(ToolErrorCodes.invalidArguments, `arguments to "${path}" must be an object, got ${got}`),
        encoding: tool.encoding,
        source: source.namespace,
      }
    }
    const mismatch = checkArguments(tool, path, args ?? {})
    if (mismatch)
      return {
        result: errResult(ToolErrorCodes.invalidArguments, mismatch.message, { data: { errors: mismatch.errors } }),
        encoding: tool.encoding,
        source: source.namespace,
      }
    if (policy.action === "require_approval" && !ctx.isApproved(index)) return { pause: policy }
    let upstreamStarted = performance.now()
    let raw = await invokeRaw(ctx, { source, tool }, args ?? {})
    if (!raw.ok && raw.unknownTool) {
      // The server no longer knows a tool our catalog lists: re-sync once, then retry if it is still listed.
      sources.markStale(source.id)
      ctx.resolved.delete(path)
      source = await sources.ensureFresh(source)
      const relisted = await store.getTool(parts.namespace, parts.name)
      if (!relisted) return { result: await notFound(path, parts.namespace), encoding: ResultEncodings.direct }
      tool = relisted
      ctx.resolved.set(path, { source, tool, policy })
      upstreamStarted = performance.now()
      raw = await invokeRaw(ctx, { source, tool }, args ?? {})
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

  return async (ctx: Execution, call: ScriptCall): Promise<ToolResult> => {
    const { path } = call
    const startedAt = now()
    const callId = ctx.callStarted(path, startedAt)
    const span = startToolCallSpan(ctx.span, path)
    let outcome: CallOutcome
    try {
      const resolved = await resolveAndCall(ctx, call)
      if ("pause" in resolved) {
        span.end()
        return ctx.pauseAt(callId, call, resolved.pause)
      }
      outcome = resolved
    } catch (cause) {
      outcome = {
        result: errResult(ToolErrorCodes.internal, internalError(logger, `tool call ${path}`, cause).message),
        encoding: ResultEncodings.direct,
      }
    }
    const { result, encoding, outputSchemaError = null, dataBytes = null, source = null, upstreamMs = null } = outcome
    const errorCode = result.ok ? null : result.error.code
    metrics.toolCallEnded(source, result.ok, errorCode, upstreamMs)
    endSpan(span, result.ok ? null : result.error, span.isRecording() ? spanAttributes(outcome) : undefined)
    ctx.callEnded(callId, {
      executionId: ctx.id,
      toolPath: path,
      encoding,
      startedAt,
      durationMs: now() - startedAt,
      ok: result.ok,
      errorCode,
      dataBytes,
      outputSchemaError,
    })
    return result
  }
}

export type ToolInvoker = ReturnType<typeof createToolInvoker>
