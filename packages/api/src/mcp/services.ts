import type { CatalogStore, Logger, Approvals, Executor, Render, Policy, Sources } from "@switchboard/core"

/** What the MCP tools need from a host; the app's services satisfy it. */
export interface McpServices {
  executor: Executor.Executor
  store: CatalogStore
  sources: Pick<Sources.SourcesService, "ensureFreshNamespace">
  /** deciding a paused call the client's person answered, and waiting for its resume (`execute`, `resume`) */
  approvals: Pick<Approvals.ApprovalsService, "get" | "list" | "decide" | "wait">
  logger: Logger
  /** describe shows each tool's policy */
  policies: Pick<Policy.PolicyService, "decide">
  /** where searches of stored output run (default: in place; the Node host gives a worker thread) */
  grep?: Render.GrepRunner
  /** told each execution the `execute` tool ran and recorded (over HTTP: the request log's execution id) */
  executed?: (executionId: string) => void
  /** how long `resume` (and `execute`, once a person answered) waits for a resumed run (default `RESUME_WAIT_MS`) */
  resumeWaitMs?: number
}
