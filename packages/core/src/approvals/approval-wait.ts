/**
 * Waiting on an approval's resume, here or on another server: a resume running here is awaited, and its response
 * kept; otherwise the store is looked at every `pollMs`, and a nap ends early when the resume starts here.
 */
import type { ApprovalRow, CatalogStore, StoredExecution } from "../catalog/rows.js"
import type { ExecuteResponse } from "../executor/response.js"
import type { LocalResumes } from "./local-resumes.js"
import type { Naps } from "./naps.js"

/** What waiting on an approval came to: its row, and its execution once the resume was recorded. */
export interface ApprovalWait {
  approval: ApprovalRow
  /** the execution as stored once its resume was recorded (ended, or paused again); absent: still waiting */
  execution?: StoredExecution
  /** the approval the execution paused at next, when it paused again */
  next?: ApprovalRow
  /**
   * the resumed run's own response, when it ran on this server and ended within the wait: what a surface renders
   * as it renders a first run's (the stored record has no media, and its text was cut once already)
   */
  response?: ExecuteResponse
}

export interface ApprovalWaitOptions {
  store: Pick<CatalogStore, "getApproval" | "getExecution" | "listApprovals">
  resumes: Pick<LocalResumes, "running">
  naps: Pick<Naps, "sleep">
  now: () => number
  pollMs: number
}

export const createApprovalWait = ({ store, resumes, naps, now, pollMs }: ApprovalWaitOptions) => {
  /** The approval's execution once its resume was recorded, and the approval it paused at next, if it did. */
  const recorded = async (approval: ApprovalRow) => {
    const execution = (await store.getExecution(approval.executionId)) ?? undefined
    const [next] =
      execution?.status === "paused"
        ? await store.listApprovals({ executionId: approval.executionId, status: "pending", limit: 1 })
        : []
    return { execution, ...(next ? { next } : {}) }
  }

  /**
   * Waits up to `ms` for the approval's resume to be recorded, here or on another server, and answers what it
   * came to. Returns early when `signal` aborts.
   */
  return async (approval: ApprovalRow, ms: number, signal?: AbortSignal): Promise<ApprovalWait> => {
    const deadline = now() + ms
    let current = approval
    let response: ExecuteResponse | undefined
    for (;;) {
      const local = resumes.running(current.id)
      if (local) {
        const nap = naps.sleep(Math.max(0, deadline - now()), signal)
        const ended = await Promise.race([local, nap.done.then(() => null)])
        nap.wake()
        if (ended) response = ended
      }
      const read = await store.getApproval(current.id)
      if (read) current = read
      const ran = response ? { response } : {}
      if (current.resumedAt !== null) return { approval: current, ...(await recorded(current)), ...ran }
      // the resume ended here, and its record could not be stored (the response says so): nothing more will come
      if (response) return { approval: current, ...ran }
      if (signal?.aborted || now() >= deadline) return { approval: current }
      // its resume started here while the store was read: take its response rather than nap past it
      if (resumes.running(current.id)) continue
      await naps.sleep(Math.min(pollMs, deadline - now()), signal, current.id).done
    }
  }
}
