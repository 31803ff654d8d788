/**
 * The seam between the CLI's catalog commands (`sources`, `describe`, `call`, `executions`, `policies`,
 * `approvals`) and where the catalog
 * is: the local database (./local-client.ts, the default) or a running server (./remote-client.ts, `--url`). Each
 * operation answers what the HTTP API answers, in the API's JSON shapes, so a command prints the same text and the
 * same `--json` either way. A failure the API would answer with `{"error":{"code","message"}}` is a
 * `CatalogClientError` with that code and message, whichever side it came from.
 */
import type {
  ExecuteBody,
  ExecutePausedBody,
  ExecutionsBody,
  OutputMatchesBody,
  OutputPageBody,
} from "@switchboard/api"
import type { Client } from "@switchboard/api/client"
import type * as Catalog from "@switchboard/core/catalog"
import type * as Sources from "@switchboard/core/sources"
import type * as Describe from "@switchboard/core/describe"

/** One tool run as an execution: the execute API's answer (`POST /v1/execute`), whose result is the call's union. */
export type CallResponse = ExecuteBody | ExecutePausedBody

/** `GET /v1/executions`: newest first; `nextBefore` when the page is full, the `before` of the next */
export type ExecutionsPage = ExecutionsBody

/** `GET /v1/executions/:id/output` with `offset`/`limit`: a page of the stored text by line */
export type OutputPage = OutputPageBody

/** `GET /v1/executions/:id/output?grep=`: the lines that match, with their 0-based numbers */
export type OutputMatches = OutputMatchesBody

export interface ExecutionListRequest {
  limit: number
  before?: string
  status?: "ok" | "error" | "paused"
}

/** what a route's typed client says its JSON answer is (the api's index does not export the approvals' bodies) */
type Answer<F extends (...args: never[]) => Promise<unknown>> =
  Awaited<ReturnType<F>> extends { json(): Promise<infer T> } ? T : never

/** `GET /v1/policies`: the rules, whether approvals are on, and what applies where no rule matches */
export type PoliciesAnswer = Answer<Client["v1"]["policies"]["$get"]>
export type PolicyView = PoliciesAnswer["policies"][number]
/** `GET /v1/executions/:id` */
export interface ExecutionAnswer {
  execution: Catalog.StoredExecution
  approval?: ApprovalView
}
/** `GET /v1/tools` */
export type ToolsAnswer = Answer<Client["v1"]["tools"]["$get"]>
export type ToolSummary = ToolsAnswer["tools"][number]
/** `GET /v1/approvals` */
export type ApprovalsAnswer = Answer<Client["v1"]["approvals"]["$get"]>
export type ApprovalView = ApprovalsAnswer["approvals"][number]
/**
 * `POST /v1/approvals/:id`: the approval as decided; with `?wait`, its execution once its resume was recorded, and
 * the approval it paused at next (the route's typed client knows the first answer only)
 */
export interface DecisionAnswer {
  approval: ApprovalView
  execution?: Catalog.StoredExecution
  next?: ApprovalView
}

export type ApprovalStatusFilter = "pending" | "approved" | "declined" | "expired" | "all"

export interface DecisionRequest {
  decision: "approve" | "decline"
  note?: string
  /** `?wait=`: how long to wait for the resumed run to be recorded (30s, 500ms, 2m). The local catalog runs the
   * resume in the command's own process and always waits for it to be recorded. */
  wait?: string
}

export interface CatalogClient {
  /** where the catalog is, for messages: the database's path or URL, or the server's URL */
  readonly target: string
  listSources(): Promise<Sources.SourceView[]>
  /** a `POST /v1/sources` body; the local catalog reports the sync's pages to `onProgress` */
  addSource(body: Record<string, unknown>, onProgress?: Sources.ProgressListener): Promise<Sources.SourceView>
  syncSource(namespace: string, onProgress?: Sources.ProgressListener): Promise<Sources.SourceView>
  /** a `PATCH /v1/sources/:namespace` body: the source re-synced, and the stored secrets and login it dropped */
  updateSource(namespace: string, patch: Record<string, unknown>): Promise<Sources.SourceUpdate>
  removeSource(namespace: string): Promise<void>
  /** `GET /v1/sources/:namespace`: one source, with its OAuth login */
  getSource(namespace: string): Promise<Sources.SourceView>
  /**
   * Begins an OAuth login (`POST /v1/sources/:namespace/login`): the URL a person opens. `redirectUri`: where the
   * browser comes back, the local catalog's loopback listener; a server sends it to its own callback instead.
   */
  beginLogin(namespace: string, redirectUri?: string): Promise<{ authorizationUrl: string; expiresAt: string }>
  /** Finishes a login the local catalog began, with its callback's query; a server's callback does this itself. */
  completeLogin?(callback: URLSearchParams): Promise<{ namespace: string; syncError: string | null }>
  /** `GET /v1/tools`: ranked by `query` when given, else in path order */
  listTools(request: { query?: string; namespace?: string; limit?: number }): Promise<ToolSummary[]>
  describe(paths: string[]): Promise<Describe.DescribeResult>
  /** runs a script as one execution (`POST /v1/execute`) */
  execute(code: string): Promise<CallResponse>
  /** runs the tool at `path` with `args`, as one execution of a script that calls it (./call-script.ts) */
  call(path: string, args: Record<string, unknown>): Promise<CallResponse>
  listExecutions(request: ExecutionListRequest): Promise<ExecutionsPage>
  /** `GET /v1/executions/:id`: the record, and for a paused one the approval it waits for */
  getExecution(id: string): Promise<ExecutionAnswer>
  /** the stored result text, exactly as stored */
  readOutput(id: string): Promise<string>
  readOutputPage(id: string, page: { offset?: number; limit?: number; charOffset?: number }): Promise<OutputPage>
  grepOutput(id: string, pattern: string): Promise<OutputMatches>
  listPolicies(): Promise<PoliciesAnswer>
  /** a `POST /v1/policies` body */
  addPolicy(body: Record<string, unknown>): Promise<PolicyView>
  removePolicy(id: string): Promise<void>
  /** newest first */
  listApprovals(request: { status: ApprovalStatusFilter; limit: number }): Promise<ApprovalView[]>
  /** decides a pending approval, which resumes its execution */
  /** one approval, its arguments whole */
  getApproval(id: string): Promise<ApprovalView>
  decideApproval(id: string, request: DecisionRequest): Promise<DecisionAnswer>
  close(): Promise<void>
}

/** What the API answers as `{"error":{"code","message"}}`, from the server or from the local catalog alike. */
export class CatalogClientError extends Error {
  readonly _tag = "CatalogClientError"
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message)
  }
}

/** A tag check, never `instanceof` (ARCHITECTURE.md: tagged errors). */
export const isCatalogClientError = (error: unknown): error is CatalogClientError =>
  (error as { _tag?: unknown } | null)?._tag === "CatalogClientError"
