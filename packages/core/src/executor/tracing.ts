/**
 * OpenTelemetry spans per execution and per tool call, through @opentelemetry/api: a no-op unless the host
 * registers a tracer provider with an exporter. Attributes carry names and codes, never arguments or data.
 */
import { SpanStatusCode, context, trace } from "@opentelemetry/api"
import type { Span } from "@opentelemetry/api"

const tracer = () => trace.getTracer("switchboard")

export const startExecutionSpan = (executionId: string): Span =>
  tracer().startSpan("switchboard.execute", { attributes: { "switchboard.execution_id": executionId } })

export const endSpan = (
  span: Span,
  error: { code: string; message: string } | null,
  attributes: Record<string, string | number | boolean> = {},
) => {
  span.setAttributes(attributes)
  if (error) span.setStatus({ code: SpanStatusCode.ERROR, message: `${error.code}: ${error.message}` })
  span.end()
}

export const startToolCallSpan = (parent: Span, path: string): Span =>
  tracer().startSpan(
    "switchboard.tool_call",
    { attributes: { "switchboard.tool.path": path } },
    trace.setSpan(context.active(), parent),
  )
