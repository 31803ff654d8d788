/**
 * The host side of `tools.<ns>.<tool>(args)`: resolve the path against a fresh catalog (./tool-resolution.ts),
 * check the call (./call-refusal.ts), pause it for a person when its policy says so, call the source's plugin and
 * decode the raw result (./upstream-call.ts); then record the call (span, metrics, the execution's record).
 * Every expected failure is a `{ ok: false }` value; nothing here rejects. Shared by the executor's executions:
 * each call is made for one Execution (./execution.ts), which records it, and is its `invoke`.
 */
import { internalError } from "../errors.js"
import type { Logger } from "../errors.js"
import { ToolErrorCodes, errResult } from "../result.js"
import type { ToolResult } from "../result.js"
import { noopMetrics } from "../seams.js"
import type { MetricsSink, SourcePlugin } from "../seams.js"
import type { CatalogStore } from "../catalog/rows.js"
import { splitToolPath } from "../catalog/tool-path.js"
import type { SourcesService } from "../sources/sources-service.js"
import type { PolicyDecider } from "../policy/policy.js"
import { directOutcome } from "./call-outcome.js"
import type { CallOutcome, PauseOutcome, ResolvedTool } from "./call-outcome.js"
import { createCallRefusal } from "./call-refusal.js"
import { createDiscovery } from "./discovery.js"
import type { Execution, ScriptCall } from "./execution.js"
import { createToolResolution } from "./tool-resolution.js"
import { endSpan, startToolCallSpan } from "./tracing.js"
import { createUpstreamCall } from "./upstream-call.js"

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

/** A tool call span's attributes: sizes and encodings, never the arguments or the data. */
const spanAttributes = ({ encoding, source, dataBytes, upstreamMs }: CallOutcome) => {
  const attributes: Record<string, string | number> = { "switchboard.tool.encoding": encoding }
  if (source !== undefined) attributes["switchboard.tool.source"] = source
  if (dataBytes !== undefined && dataBytes !== null) attributes["switchboard.tool.data_bytes"] = dataBytes
  if (upstreamMs !== undefined) attributes["switchboard.tool.upstream_ms"] = upstreamMs
  return attributes
}

/** A resolved entry, as against the answer to a path that resolved to nothing. */
const isResolved = (entry: ResolvedTool | CallOutcome): entry is ResolvedTool => "tool" in entry

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
  const resolve = createToolResolution({ store, sources, policies, notFound })
  const refusal = createCallRefusal(logger)
  const callUpstream = createUpstreamCall({ store, sources, plugins, notFound })

  const resolveAndCall = async (ctx: Execution, call: ScriptCall): Promise<CallOutcome | PauseOutcome> => {
    const { path } = call
    if (path.startsWith("$")) {
      const discovered = await discover(path, call.args)
      if (discovered) return directOutcome(discovered)
    }
    const parts = splitToolPath(path)
    if (!parts) return directOutcome(await notFound(path, null))
    const entry = ctx.resolved.get(path) ?? (await resolve(ctx, path, parts))
    if (!isResolved(entry)) return entry
    const refused = refusal(entry, call)
    if (refused) return refused
    if (entry.policy.action === "require_approval" && !ctx.isApproved(call.index)) return { pause: entry.policy }
    return callUpstream(ctx, call, entry)
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
      outcome = directOutcome(
        errResult(ToolErrorCodes.internal, internalError(logger, `tool call ${path}`, cause).message),
      )
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
