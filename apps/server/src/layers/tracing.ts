/**
 * OpenTelemetry as a resource of the host: when the environment names a collector (otlp-tracing.ts), the tracer
 * provider is registered as the host starts and shut down as it closes, after everything built on top of it, so
 * the spans of executions cut off by the close are sent too. Every command that builds a host (serve, run, mcp)
 * traces alike; a provider that cannot start stops the start, and nothing it opened stays open.
 */
import { Effect, Layer } from "effect"
import { Services } from "@switchboard/core"
import { startTracing } from "../telemetry/otlp-tracing.js"
import { startStep } from "./start-failed.js"

export const tracingLayer = (env: NodeJS.ProcessEnv = process.env) =>
  Layer.effectDiscard(
    Effect.gen(function* () {
      const logger = yield* Services.Logger
      yield* Effect.acquireRelease(
        startStep("tracing", () => startTracing(logger, env)),
        (tracing) => Effect.promise(async () => tracing?.shutdown()),
      )
    }),
  )
