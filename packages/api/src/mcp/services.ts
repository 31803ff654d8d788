import type * as Sources from "@switchboard/core/sources"
import type * as Executor from "@switchboard/core/executor"
import type * as Policy from "@switchboard/core/policy"
import type * as Approvals from "@switchboard/core/approvals"
import type * as Render from "@switchboard/core/render"
import type * as Auth from "@switchboard/core/auth"
import type { CatalogStore, Logger } from "@switchboard/core"
import type { AskApproval } from "./ask-approval.js"

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
  /** the web page where a person decides an approval, when the server serves the console (../console-links.ts) */
  approvalPage?: (approvalId: string) => string
}

/** One call of an MCP tool: the host's services, who calls, the request's signal, and the person to ask, if any. */
export interface McpToolCall {
  services: McpServices
  caller: Auth.Caller
  /** aborted when the client goes away */
  signal: AbortSignal
  /** the client's person, where the client and the transport allow asking (./ask-approval.ts) */
  ask?: AskApproval
}
