/**
 * The Node host's metrics, in Prometheus text at GET /metrics (prom-client): core's MetricsSink (executions,
 * refusals, tool calls, syncs) and the request log's entries (requests by route and status) counted, the worker
 * pool's queue and workers read when scraped, and prom-client's process metrics. One registry per host, never the
 * global one, so two hosts in one process (tests) count apart.
 *
 * Label values come from bounded sets only: error codes outside core's own become `other`, and a tool call's
 * source is the namespace of a catalog source it resolved to (a script cannot make one up). The counts that move
 * per request and per tool call are plain (plain-metrics.ts): prom-client formats them when scraped.
 *
 * prom-client is slow to load, so a server loads it only after its port is open (`load`, serve.ts): the
 * counts are kept from the start without it, and a scrape before then waits for it.
 */
import type { Registry } from "prom-client"
import { RunErrorCodes, ToolErrorCodes } from "@switchboard/core"
import type { MetricsSink } from "@switchboard/core"
import type { RequestLogEntry } from "@switchboard/api"
import type { WorkerPoolStats } from "@switchboard/runtime-quickjs/node"
import { plainCounter, plainHistogram, registerPlain } from "./plain-metrics.js"
import type { PlainMetric } from "./plain-metrics.js"

const runCodes = new Set<string>(Object.values(RunErrorCodes))
const toolCodes = new Set<string>(Object.values(ToolErrorCodes))
const bounded = (known: Set<string>, code: string) => (known.has(code) ? code : "other")

const SECONDS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60]

export const createPrometheusMetrics = (pool?: () => WorkerPoolStats) => {
  /** every plain metric made below, registered as one when prom-client loads */
  const plain: PlainMetric[] = []
  const kept = <M extends { metric: PlainMetric }>(made: M) => (plain.push(made.metric), made)
  const executions = kept(
    plainCounter(
      "switchboard_executions_total",
      "Executions that ran to their end, by status (ok, error) and error code",
      ["status", "error_code"],
    ),
  )
  const executionSeconds = kept(
    plainHistogram(
      "switchboard_execution_duration_seconds",
      "Time from an execution's start to its end, tool calls included, by status",
      SECONDS,
      ["status"],
    ),
  )
  const rejected = kept(
    plainCounter(
      "switchboard_executions_rejected_total",
      "Executions refused before they started because every sandbox was busy and the queue full (HTTP 429 overloaded, and the MCP execute tool's overloaded)",
    ),
  )
  const toolCalls = kept(
    plainCounter(
      "switchboard_tool_calls_total",
      'Tool calls by the source they reached (its namespace; "" when the path named no source) and outcome (ok, or the error code)',
      ["source", "outcome"],
    ),
  )
  const upstreamSeconds = kept(
    plainHistogram(
      "switchboard_tool_upstream_duration_seconds",
      "Time a tool call spent in its source's plugin: the upstream's latency, connection included",
      [0.0005, ...SECONDS],
      ["source"],
    ),
  )
  const syncs = kept(
    plainCounter(
      "switchboard_source_syncs_total",
      "Syncs of a stored source's catalog (asked for, lazy, or after a change), by source and result (ok, error)",
      ["source", "result"],
    ),
  )
  const requests = kept(
    plainCounter(
      "switchboard_http_requests_total",
      'HTTP requests by method, route pattern ("" when none matched) and status; status="429" are the overloaded answers',
      ["method", "route", "status"],
    ),
  )

  let loaded: Promise<Registry> | undefined
  /** prom-client, its registry with the process's metrics, ours and the pool's gauges; once (again after a failure) */
  const load = (): Promise<Registry> =>
    (loaded ??= import("prom-client")
      .then(({ Gauge, Registry, collectDefaultMetrics }) => {
        const registry = new Registry()
        collectDefaultMetrics({ register: registry })
        for (const metric of plain) registerPlain(registry, metric)
        if (pool) {
          const registers = [registry]
          const gauge = (name: string, help: string, read: (stats: WorkerPoolStats) => number) =>
            new Gauge({
              name,
              help,
              registers,
              collect() {
                this.set(read(pool()))
              },
            })
          gauge("switchboard_pool_queue_depth", "Executions waiting for a sandbox worker", (s) => s.queued)
          gauge("switchboard_pool_busy_workers", "Sandbox workers running an execution", (s) => s.busy)
          gauge("switchboard_pool_idle_workers", "Sandbox workers ready for an execution", (s) => s.idle)
          gauge("switchboard_pool_workers", "Sandbox workers in the pool", (s) => s.size)
          gauge(
            "switchboard_pool_workers_replaced",
            "Sandbox workers replaced since the start (killed at a deadline, grown past a memory bound, idle with grown memory, or crashed)",
            (s) => s.replaced,
          )
        }
        return registry
      })
      .catch((cause: unknown) => {
        loaded = undefined
        throw cause
      }))

  const sink: MetricsSink = {
    executionEnded(status, errorCode, durationMs) {
      executions.inc(status, errorCode === null ? "" : bounded(runCodes, errorCode))
      executionSeconds.observe(durationMs / 1000, status)
    },
    executionRejected() {
      rejected.inc()
    },
    toolCallEnded(source, ok, errorCode, upstreamMs) {
      toolCalls.inc(source ?? "", ok ? "ok" : bounded(toolCodes, errorCode ?? ""))
      if (upstreamMs !== null && source !== null) upstreamSeconds.observe(upstreamMs / 1000, source)
    },
    syncEnded(namespace, ok) {
      syncs.inc(namespace, ok ? "ok" : "error")
    },
  }

  return {
    sink,
    /** counts one request of the request log */
    request(entry: RequestLogEntry) {
      requests.inc(entry.method, entry.route ?? "", String(entry.status))
    },
    /** loads prom-client now (a server, once its port is open), rather than at the first scrape */
    load,
    /** the body of GET /metrics */
    async render() {
      const registry = await load()
      return { contentType: registry.contentType, body: await registry.metrics() }
    },
  }
}

export type PrometheusMetrics = ReturnType<typeof createPrometheusMetrics>
