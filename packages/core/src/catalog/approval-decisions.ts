/**
 * The compare-and-set updates of approvals: a decision, a claim of due resumes, and a resume passing its pause.
 * Each is one update that answers the rows it wrote (RETURNING): whatever two servers sharing a catalog do at
 * once, one of them changes a row and the other finds it no longer matching.
 */
import { and, asc, eq, gte, inArray, isNull, lt, ne, or, sql } from "drizzle-orm"
import type { StoreDialect } from "./dialect.js"
import { approvalRow, wholeLimit } from "./approval-rows.js"
import type { ApprovalDecision, ApprovalRow, ApprovalStatus } from "./rows.js"

export const approvalDecisions = (dialect: StoreDialect) => {
  const { db, tables } = dialect
  const claimIn = dialect.claimIn?.bind(dialect) ?? inArray
  const { approvals } = tables

  return {
    async decideApproval({ id, status, note, by, at, leaseUntil }: ApprovalDecision): Promise<ApprovalRow | null> {
      if ((status as ApprovalStatus) === "pending") throw new RangeError("a decision cannot be pending")
      // approved or declined up to its deadline, at it included; expired only once past it
      const deadline = status === "expired" ? lt(approvals.expiresAt, at) : gte(approvals.expiresAt, at)
      const [row] = await db
        .update(approvals)
        .set({ status, note, decidedAt: at, decidedBy: by, resumeLeaseUntil: leaseUntil })
        .where(and(eq(approvals.id, id), eq(approvals.status, "pending"), deadline))
        .returning()
      return row ? approvalRow(row) : null
    },

    async claimResumes(at: number, leaseUntil: number, limit: number): Promise<ApprovalRow[]> {
      wholeLimit("claimResumes", limit)
      // a lease that has passed when it is taken would let the next claimer take the row at once
      if (!(leaseUntil > at))
        throw new RangeError(`a resume's lease must end after it is taken (${leaseUntil} <= ${at})`)
      const pending = eq(approvals.status, "pending")
      const due = and(
        isNull(approvals.resumedAt),
        or(ne(approvals.status, "pending"), lt(approvals.expiresAt, at)),
        or(isNull(approvals.resumeLeaseUntil), lt(approvals.resumeLeaseUntil, at)),
      )
      const oldestDue = db
        .select({ id: approvals.id })
        .from(approvals)
        .where(due)
        .orderBy(asc(approvals.createdAt), asc(approvals.id))
        .limit(limit)
      // One statement: what it expires it also claims. `due` is asked again of each row as the update writes it:
      // on Postgres a row another claimer wrote since this statement's snapshot is read again as that claimer left it
      // and, now held, passed over.
      const rows = await db
        .update(approvals)
        .set({
          status: sql`case when ${pending} then 'expired' else ${approvals.status} end`,
          decidedAt: sql`case when ${pending} then ${at} else ${approvals.decidedAt} end`,
          resumeLeaseUntil: leaseUntil,
        })
        .where(and(claimIn(approvals.id, oldestDue), due))
        .returning()
      return rows.map(approvalRow).sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    },

    async passPause(approvalId: string, at: number): Promise<boolean> {
      const rows = await db
        .update(approvals)
        .set({ resumePastPauseAt: at })
        .where(and(eq(approvals.id, approvalId), isNull(approvals.resumePastPauseAt), isNull(approvals.resumedAt)))
        .returning({ id: approvals.id })
      return rows.length === 1
    },
  }
}
