/** OpenTelemetry: one span per execution and one per tool call once a tracer provider is registered. */
import { trace } from "@opentelemetry/api"
import { afterAll, beforeAll, expect, it } from "vitest"
import { startTestServer } from "../support/helpers.js"
import type { TestServer } from "../support/helpers.js"

interface RecordedSpan {
  name: string
  attributes: Record<string, unknown>
  status: unknown
  ended: boolean
}
const spans: RecordedSpan[] = []

// A recording provider written against the API's own interface (no exporter package needed to observe spans).
const recordingTracer = {
  startSpan(name: string, options?: { attributes?: Record<string, unknown> }) {
    const span: RecordedSpan & Record<string, unknown> = {
      name,
      attributes: { ...options?.attributes },
      status: null,
      ended: false,
    }
    Object.assign(span, {
      setAttributes: (a: Record<string, unknown>) => (Object.assign(span.attributes, a), span),
      setAttribute: (k: string, v: unknown) => ((span.attributes[k] = v), span),
      setStatus: (s: unknown) => ((span.status = s), span),
      end: () => void (span.ended = true),
      isRecording: () => true,
      spanContext: () => ({ traceId: "0".repeat(31) + "1", spanId: "0".repeat(15) + "1", traceFlags: 1 }),
      addEvent: () => span,
      recordException: () => {},
      updateName: () => span,
    })
    spans.push(span)
    return span
  },
}

let server: TestServer
beforeAll(async () => {
  trace.setGlobalTracerProvider({ getTracer: () => recordingTracer as never })
  server = await startTestServer()
})
afterAll(async () => {
  await server?.stop()
  trace.disable()
})

it("an execution and its tool calls each end a span, with the error code on failure", async () => {
  const response = await server.execute(`await tools.nope.missing({}); return 1`)
  const execution = spans.find(
    (s) => s.name === "switchboard.execute" && s.attributes["switchboard.execution_id"] === response.executionId,
  )
  expect(execution).toMatchObject({ ended: true, attributes: { "switchboard.tool_calls": 1 } })
  const call = spans.find(
    (s) => s.name === "switchboard.tool_call" && s.attributes["switchboard.tool.path"] === "nope.missing",
  )
  expect(call).toMatchObject({ ended: true, status: { code: 2, message: expect.stringMatching(/^tool_not_found/) } })
})
