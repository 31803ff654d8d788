/**
 * OpenTelemetry for the Node host: when `OTEL_EXPORTER_OTLP_ENDPOINT` (or `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`) is
 * set, a tracer provider is registered globally, so the execution and tool-call spans core makes through
 * @opentelemetry/api (core's executor/tracing.ts) are batched and sent to that collector over OTLP/HTTP (JSON; the
 * exporter reads the other `OTEL_EXPORTER_OTLP_*` variables itself, headers and timeout included). Unset, nothing
 * is loaded and the spans stay the API's no-ops.
 *
 * No context manager is installed: core passes each tool call's parent span explicitly, so nothing needs
 * AsyncLocalStorage. `service.name` is `switchboard` unless OTEL_SERVICE_NAME or OTEL_RESOURCE_ATTRIBUTES says.
 */
import { DiagLogLevel, diag, trace } from "@opentelemetry/api"
import type { Logger } from "@switchboard/core"

export interface Tracing {
  /** Sends the spans still batched and unregisters the provider. */
  shutdown(): Promise<void>
}

/** the longest a shutdown waits for the last spans to be sent */
const SHUTDOWN_WAIT_MS = 2_000

const tracingWanted = (env: NodeJS.ProcessEnv = process.env) =>
  Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) && env.OTEL_SDK_DISABLED !== "true"

/** Registers the OTLP tracer provider when the environment asks for one; null when it does not. */
export const startTracing = async (logger: Logger, env: NodeJS.ProcessEnv = process.env): Promise<Tracing | null> => {
  if (!tracingWanted(env)) return null
  // loaded only when wanted: the SDK and the exporter take tens of milliseconds to import
  const [{ OTLPTraceExporter }, { BatchSpanProcessor, TracerProvider }, resources] = await Promise.all([
    import("@opentelemetry/exporter-trace-otlp-http"),
    import("@opentelemetry/sdk-trace"),
    import("@opentelemetry/resources"),
  ])
  const resource = resources
    .defaultResource()
    .merge(resources.resourceFromAttributes({ "service.name": "switchboard" }))
    .merge(resources.detectResources({ detectors: [resources.envDetector] }))
  // this SDK's processor no longer reads the spec's OTEL_BSP_SCHEDULE_DELAY itself (its default is 5 s)
  const delay = Number(env.OTEL_BSP_SCHEDULE_DELAY)
  const processor = new BatchSpanProcessor({
    exporter: new OTLPTraceExporter(),
    ...(Number.isFinite(delay) && delay > 0 ? { scheduledDelayMillis: delay } : {}),
  })
  const provider = new TracerProvider({ resource, spanProcessors: [processor] })
  // an export that fails (the collector down) says so in our log, once per failed batch
  diag.setLogger(
    {
      error: (message) => logger.warn("OpenTelemetry export failed", { error: message }),
      warn: () => {},
      info: () => {},
      debug: () => {},
      verbose: () => {},
    },
    DiagLogLevel.ERROR,
  )
  trace.setGlobalTracerProvider(provider)
  return {
    async shutdown() {
      // a collector that is down is retried for up to its timeout (10 s): the exit waits SHUTDOWN_WAIT_MS at most
      let timer: ReturnType<typeof setTimeout> | undefined
      const waited = new Promise<void>((resolve) => (timer = setTimeout(resolve, SHUTDOWN_WAIT_MS)))
      await Promise.race([provider.shutdown().catch(() => undefined), waited])
      clearTimeout(timer)
      trace.disable()
      diag.disable()
    },
  }
}
