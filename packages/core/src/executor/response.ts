/** What an execute answers: a run that ended (well or not) or one paused for a person's decision. */
import type { ContentBlock } from "../result.js"
import type { LogEntry, RunError } from "../seams.js"

/** what a paused execution's response shows of its approval */
export interface ApprovalSummary {
  id: string
  /** the tool path the paused call names */
  tool: string
  /** the call's arguments as the script passed them */
  args: unknown
  reason: string
  /** epoch ms: past it, nobody having decided, the call is declined */
  expiresAt: number
}

/**
 * `stored` says whether the execution's record was committed. Only then does the response name it: `executionId`
 * is present exactly when `stored` is true, so no response points at a record that does not exist. When it is
 * false, `warning` says why, and a result cut at the inline cap says that the rest could not be kept.
 */
export type ExecuteResponse =
  | {
      executionId?: string
      stored: boolean
      warning?: string
      ok: true
      result: unknown
      /**
       * `result` as JSON text, when it was made with the result's text (render/render-result.ts, `json`): a
       * surface that writes the result as JSON writes this as it is. `result` is then parsed from it if read.
       */
      resultJson?: string
      /** the result as model-facing text (media blocks taken out), cut at the inline cap */
      text: string
      truncated?: { totalLines: number; totalChars: number }
      /** image and audio blocks the script returned, for surfaces that carry them natively (MCP) */
      media?: ContentBlock[]
      logs: LogEntry[]
    }
  | { executionId?: string; stored: boolean; warning?: string; ok: false; error: RunError; logs: LogEntry[] }
  /**
   * The run reached a call that needs a person's decision and is paused, durably: `approval` names it. Nothing
   * failed and nothing ended, so it has no `ok`: `status` says what happened, and `message` says it in words.
   */
  | {
      executionId: string
      stored: true
      warning?: undefined
      status: "paused"
      message: string
      approval: ApprovalSummary
      logs: LogEntry[]
    }

/** A run that waits for a person: the one arm of `ExecuteResponse` with a `status`. */
export type PausedResponse = Extract<ExecuteResponse, { status: "paused" }>
/** A run that ended, well or not, or was refused: the arms with `ok`. */
export type EndedResponse = Exclude<ExecuteResponse, PausedResponse>
/** A run that ended well. */
export type OkResponse = Extract<ExecuteResponse, { ok: true }>

export const isPausedResponse = (response: ExecuteResponse): response is PausedResponse => "status" in response
