/** The resumes running on this server, by approval id: one per approval, and a failure logged, never thrown. */
import { internalError, isServiceError } from "../errors.js"
import type { Logger } from "../errors.js"
import type { ApprovalRow } from "../catalog/rows.js"
import type { Executor } from "../executor/executor.js"
import type { ExecuteResponse } from "../executor/response.js"
import type { Naps } from "./naps.js"

export interface LocalResumesOptions {
  executor: Pick<Executor, "resume">
  logger: Logger
  naps: Pick<Naps, "wake">
}

export type LocalResumes = ReturnType<typeof createLocalResumes>

export const createLocalResumes = ({ executor, logger, naps }: LocalResumesOptions) => {
  const resuming = new Map<string, Promise<ExecuteResponse | null>>()

  return {
    /** Runs a claimed resume here; a failure is logged, and the lease lets another try once it passes. */
    start(approval: ApprovalRow): Promise<ExecuteResponse | null> {
      const known = resuming.get(approval.id)
      if (known) return known
      const resume = executor
        .resume(approval)
        .then((response) => {
          if (!isServiceError(response)) return response
          logger.warn("resume deferred: no sandbox free; it is tried again when its lease passes", {
            approvalId: approval.id,
            executionId: approval.executionId,
          })
          return null
        })
        .catch((cause: unknown) => {
          internalError(logger, `resume of execution ${approval.executionId}`, cause)
          return null
        })
        .finally(() => resuming.delete(approval.id))
      resuming.set(approval.id, resume)
      // a wait would otherwise look again only at its next poll, and miss a resume that ended meanwhile
      naps.wake(approval.id)
      return resume
    },

    /** the approval's resume running here, if one is */
    running(approvalId: string): Promise<ExecuteResponse | null> | undefined {
      return resuming.get(approvalId)
    },

    /** Resolves once every resume running here has ended (recorded, or failed and left to its lease). */
    async settled(): Promise<void> {
      while (resuming.size > 0) await Promise.allSettled([...resuming.values()])
    },
  }
}
