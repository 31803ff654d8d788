/**
 * OpenTelemetry spans per execution and per tool call, through @opentelemetry/api: a no-op unless the host
 * registers a tracer provider with an exporter. Attributes carry names, codes, sizes and encodings, never
 * arguments or data; a failed span's status names only the error's code, because its message can quote a
 * script's thrown value or an upstream's error text (which may hold a secret the source was configured with).
 */
import { SpanStatusCode, context, trace } from "@opentelemetry/api"
import type { Span } from "@opentelemetry/api"

const tracer = () => trace.getTracer("switchboard")

export const startExecutionSpan = (executionId: string): Span =>
  tracer().startSpan("switchboard.execute", { attributes: { "switchboard.execution_id": executionId } })

export const endSpan = (
  span: Span,
  error: { code: string } | null,
  attributes: Record<string, string | number | boolean> = {},
) => {
  span.setAttributes(attributes)
  if (error) {
    span.setAttribute("switchboard.error_code", error.code)
    span.setStatus({ code: SpanStatusCode.ERROR, message: error.code })
  }
  span.end()
}

export const startToolCallSpan = (parent: Span, path: string): Span =>
  tracer().startSpan(
    "switchboard.tool_call",
    { attributes: { "switchboard.tool.path": path } },
    trace.setSpan(context.active(), parent),
  )
