/**
 * core's own services, each made from the seams' tags (./seams.ts): the sources service, the executor and the
 * API keys. A host provides the seams and these layers on top; the services themselves stay plain objects, so
 * the per-request and per-call paths run no Effect.
 */
import { Context, Effect, Layer, Option } from "effect"
import { createApiKeyService } from "../auth/api-keys.js"
import type { ApiKeyService } from "../auth/api-keys.js"
import { createSourcesService } from "../sources/sources-service.js"
import type { SourcesService } from "../sources/sources-service.js"
import { createApprovalsService } from "../approvals/approvals-service.js"
import type { ApprovalsService } from "../approvals/approvals-service.js"
import { createPolicyService } from "../policy/policy-service.js"
import type { PolicyService } from "../policy/policy-service.js"
import { createExecutor } from "../executor/executor.js"
import type { Executor as ExecutorShape, ExecutorOptions } from "../executor/executor.js"
import {
  CatalogStore,
  CodeRuntime,
  Logger,
  MetricsSink,
  OAuth,
  SourcePlugins,
  StaleSources,
  TelemetrySink,
  nowFrom,
} from "./host-seams.js"

export interface SourcesOptions {
  /** a source synced longer ago than this is re-synced before its tools are next used or listed */
  syncTtlMs?: number
  /** a sync still listing after this long logs its progress, then again each time as long (default 1 s) */
  progressLogMs?: number
}

export class Sources extends Context.Service<Sources, SourcesService>()("@switchboard/core/Sources") {
  static readonly make = (options: SourcesOptions = {}) =>
    Effect.gen(function* () {
      return createSourcesService({
        store: yield* CatalogStore,
        plugins: yield* SourcePlugins,
        logger: yield* Logger,
        stale: yield* StaleSources,
        metrics: yield* MetricsSink,
        now: yield* nowFrom,
        syncTtlMs: options.syncTtlMs,
        progressLogMs: options.progressLogMs,
        // a host that logs sources in provides OAuth beneath the sources (its plugins take its credentials)
        logins: Option.getOrUndefined(yield* Effect.serviceOption(OAuth))?.logins,
      })
    })
  static readonly layer = (options: SourcesOptions = {}) => Layer.effect(Sources, Sources.make(options))
}

export interface PoliciesOptions {
  /** false: approvals are off for trusted local use (what would need one is allowed; `block` still blocks) */
  approvals?: boolean
}

/** The policy rules every tool call is checked against (policy/policy-service.ts). */
export class Policies extends Context.Service<Policies, PolicyService>()("@switchboard/core/Policies") {
  static readonly make = (options: PoliciesOptions = {}) =>
    Effect.gen(function* () {
      return createPolicyService({ store: yield* CatalogStore, now: yield* nowFrom, approvals: options.approvals })
    })
  static readonly layer = (options: PoliciesOptions = {}) => Layer.effect(Policies, Policies.make(options))
}

export type ExecutorLayerOptions = Pick<ExecutorOptions, "limits" | "inlineCap" | "approvalTtlMs" | "replayClock">

export class Executor extends Context.Service<Executor, ExecutorShape>()("@switchboard/core/Executor") {
  static readonly make = (options: ExecutorLayerOptions = {}) =>
    Effect.gen(function* () {
      return createExecutor({
        store: yield* CatalogStore,
        policies: yield* Policies,
        sources: yield* Sources,
        runtime: yield* CodeRuntime,
        plugins: yield* SourcePlugins,
        logger: yield* Logger,
        telemetry: yield* TelemetrySink,
        metrics: yield* MetricsSink,
        now: yield* nowFrom,
        ...options,
      })
    })
  static readonly layer = (options: ExecutorLayerOptions = {}) => Layer.effect(Executor, Executor.make(options))
}

/** Deciding paused calls and resuming their executions (approvals/approvals-service.ts). */
export class Approvals extends Context.Service<Approvals, ApprovalsService>()("@switchboard/core/Approvals") {
  static readonly make = Effect.gen(function* () {
    return createApprovalsService({
      store: yield* CatalogStore,
      executor: yield* Executor,
      logger: yield* Logger,
      now: yield* nowFrom,
    })
  })
  static readonly layer = Layer.effect(Approvals, Approvals.make)
}

export class ApiKeys extends Context.Service<ApiKeys, ApiKeyService>()("@switchboard/core/ApiKeys") {
  static readonly make = Effect.gen(function* () {
    return createApiKeyService(yield* CatalogStore, yield* nowFrom)
  })
  static readonly layer = Layer.effect(ApiKeys, ApiKeys.make)
}
