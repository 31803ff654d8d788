/**
 * `executor.execute`: one script run end to end. The factory wires the jobs, each a module of its own: run one
 * execution through the runtime (./run.ts), store a pause (./pause.ts), record an end (./record.ts), resume a
 * paused execution by replay (./resume.ts). The response is a value whatever the script did; only our own defects
 * become `internal_error`, with a correlation id. The one typed failure is admission: `Overloaded`, before a run
 * starts.
 */
import { Effect } from "effect"
import type { Overloaded } from "../errors.js"
import type { Logger, Outcome } from "../errors.js"
import { DEFAULT_INLINE_CAP } from "../render/render-for-model.js"
import { noopMetrics } from "../seams.js"
import type { CodeRuntime, MetricsSink, RunLimits, SourcePlugin, TelemetrySink } from "../seams.js"
import type { CatalogStore } from "../catalog/rows.js"
import type { SourcesService } from "../sources/sources-service.js"
import { OPEN_CALLER } from "../auth/scopes.js"
import type { Caller } from "../auth/scopes.js"
import { Execution } from "./execution.js"
import { createToolInvoker } from "./tool-invoker.js"
import { createGroupCommit } from "./group-commit.js"
import { executeRequest, parseRequest } from "../request-schemas.js"
import type { ExecuteRequest } from "../request-schemas.js"
import { defaultLimits, limitsWithin } from "../limits.js"
import { createPolicyService } from "../policy/policy-service.js"
import type { PolicyService } from "../policy/policy-service.js"
import { DEFAULT_APPROVAL_TTL_MS, createPauser } from "./pause.js"
import { createRecorder } from "./record.js"
import { createResumer } from "./resume.js"
import { createRunner } from "./run.js"
import type { ExecuteResponse } from "./response.js"

/** A tag check rather than `instanceof`, which fails when core is bundled twice. */
const isOverloaded = (value: object): value is Overloaded => (value as { _tag?: unknown })._tag === "Overloaded"

export interface ExecutorOptions {
  store: CatalogStore
  sources: Pick<SourcesService, "ensureFresh" | "markStale" | "recordConnectFailure">
  runtime: CodeRuntime
  plugins: readonly SourcePlugin[]
  logger: Logger
  /** where execution records are written (default: the store), in batches of executions that finish together */
  telemetry?: TelemetrySink
  /** counts executions, refusals and tool calls for the host's metrics (default: none) */
  metrics?: MetricsSink
  /** the server's limits; a request may lower any of them, never raise one */
  limits?: Partial<RunLimits>
  /** characters of result text returned inline; the whole text is always stored with the execution */
  inlineCap?: number
  /** the policy rules each call is checked against (default: the store's, approvals on) */
  policies?: PolicyService
  /** how long a paused call waits for a person before it counts as declined (default an hour) */
  approvalTtlMs?: number
  /**
   * false: a run does not replay Date, only Math.random (a test shows what replay is for: a script that puts
   * Date.now() into a tool's arguments diverges without it). Default true.
   */
  replayClock?: boolean
  now?: () => number
}

export const createExecutor = ({
  store,
  sources,
  runtime,
  plugins,
  logger,
  telemetry = store,
  metrics = noopMetrics,
  limits,
  inlineCap = DEFAULT_INLINE_CAP,
  policies = createPolicyService({ store }),
  approvalTtlMs = DEFAULT_APPROVAL_TTL_MS,
  replayClock = true,
  now = Date.now,
}: ExecutorOptions) => {
  const serverLimits: RunLimits = { ...defaultLimits, ...limits }
  const callTool = createToolInvoker({ store, sources, plugins, logger, policies, metrics, now })
  // a batch of records may wait briefly for the executions still running (group-commit.ts)
  const records = createGroupCommit(telemetry, { running: () => runner.running() })
  const record = createRecorder({ store, records, metrics, logger, inlineCap, now })
  const pause = createPauser({ store, logger, approvalTtlMs, now, record })
  const runner = createRunner({ runtime, logger, metrics, inlineCap, replayClock, pause, record })
  const resume = createResumer({ store, serverLimits, callTool, now, runner, record })

  /** The execute request's one definition checks it, for HTTP and MCP alike (../request-schemas.ts). */
  const parse = (body: unknown): Outcome<ExecuteRequest> => parseRequest(executeRequest, body)

  /**
   * Runs one execution to its end, without a fiber: the HTTP route's path, where an Effect at the edge costs a
   * trivial execute a fiber, an AbortController and a second abort listener on the request's signal
   * (bench/host-ab.ts). A runtime that refuses the run for want of room (`overloaded`: it never started) is the
   * typed admission error, returned as a value, and nothing is recorded. `signal` is the caller's: aborting it
   * aborts the run and the tool calls in flight, and the execution is still recorded.
   */
  const run = async (
    request: ExecuteRequest,
    signal?: AbortSignal,
    by: Pick<Caller, "keyId"> = OPEN_CALLER,
  ): Promise<ExecuteResponse | Overloaded> =>
    runner.run(
      new Execution({
        code: request.code,
        limits: limitsWithin(serverLimits, request.limits, request.timeoutMs),
        callerSignal: signal,
        keyId: by.keyId,
        callTool,
        now,
      }),
    )

  /**
   * One execution as an Effect for the surfaces: `Overloaded` when the runtime has no room for it (HTTP 429
   * with Retry-After). A caller hanging up interrupts the fiber: the run and its tool calls are aborted, and the
   * interruption ends once the execution is recorded. `by`: who asked; its key is recorded with the execution.
   */
  const execute = (
    request: ExecuteRequest,
    by: Pick<Caller, "keyId"> = OPEN_CALLER,
  ): Effect.Effect<ExecuteResponse, Overloaded> =>
    Effect.callback<ExecuteResponse, Overloaded>((resume, signal) => {
      const running = run(request, signal, by)
      // `run` answers every expected failure as a value: a rejection is our defect, and the fiber dies of it
      running.then(
        (response) => resume(isOverloaded(response) ? Effect.fail(response) : Effect.succeed(response)),
        (cause: unknown) => resume(Effect.die(cause)),
      )
      return Effect.promise(() => running.catch(() => undefined))
    })

  /** `inlineCap`: where a result's text is cut, so a surface that answers a stored record cuts it as the run did */
  return { parse, execute, run, resume, policies, limits: serverLimits, inlineCap }
}

export type Executor = ReturnType<typeof createExecutor>
