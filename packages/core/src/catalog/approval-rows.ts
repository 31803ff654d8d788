/**
 * Paused calls and their resumes (`approvals`). A pause and a resume's end each write the execution's record (its
 * row written again whole, ./execution-rows.ts), its new tool calls and the approval rows in one batch. A decision
 * and a claim are each one compare-and-set update that answers the rows it wrote (RETURNING): whatever two servers
 * sharing a catalog do at once, one of them changes a row and the other finds it no longer matching.
 */
import { and, asc, desc, eq, gte, inArray, isNull, lt, ne, or, sql } from "drizzle-orm"
import { Data } from "effect"
import type { ExecutionEntry } from "../seams.js"
import { first } from "./chunks.js"
import type { StoreDialect } from "./dialect.js"
import type { executionRows } from "./execution-rows.js"
import type { ApprovalDecision, ApprovalListQuery, ApprovalRow, ApprovalStatus, ResumeEnd } from "./rows.js"

/**
 * `completeResume` found the approval's resume recorded already (by another server whose lease this one's outlived,
 * or by this one before), or the approval gone with its execution: nothing was written.
 */
export class ResumeConflict extends Data.TaggedError("ResumeConflict")<{ message: string; approvalId: string }> {}

export const isResumeConflict = (error: unknown): error is ResumeConflict =>
  typeof error === "object" && error !== null && (error as { _tag?: unknown })._tag === "ResumeConflict"

const wholeLimit = (method: string, limit: number) => {
  if (!Number.isInteger(limit) || limit < 1)
    throw new RangeError(`${method} needs a whole number limit of at least 1 (got ${limit})`)
}

export const approvalRows = (dialect: StoreDialect, records: ReturnType<typeof executionRows>) => {
  const { db, tables, writeBatch } = dialect
  const claimIn = dialect.claimIn?.bind(dialect) ?? inArray
  const { approvals } = tables
  const toRow = (row: typeof approvals.$inferSelect): ApprovalRow => ({
    ...row,
    status: row.status as ApprovalStatus,
  })
  // a call made without arguments stores NULL, and reads back null
  const toInsert = (row: ApprovalRow): typeof approvals.$inferInsert => ({ ...row, args: row.args ?? null })
  const sameExecution = (entry: ExecutionEntry, approval: ApprovalRow) => {
    if (approval.executionId !== entry.execution.id)
      throw new RangeError(`approval ${approval.id} is of execution ${approval.executionId}, not ${entry.execution.id}`)
  }

  return {
    async recordPause(entry: ExecutionEntry, approval: ApprovalRow): Promise<void> {
      if (entry.execution.status !== "paused")
        throw new RangeError(
          `recordPause takes a paused execution (${entry.execution.id} is ${entry.execution.status})`,
        )
      sameExecution(entry, approval)
      const write = records.statements([entry], { overwrite: true })
      await writeBatch((tx) => [...write(tx), tx.insert(approvals).values(toInsert(approval))])
    },

    async getApproval(id: string): Promise<ApprovalRow | null> {
      const row = first(await db.select().from(approvals).where(eq(approvals.id, id)).limit(1))
      return row ? toRow(row) : null
    },

    async listApprovals({ status, keyId, executionId, limit }: ApprovalListQuery): Promise<ApprovalRow[]> {
      wholeLimit("listApprovals", limit)
      const rows = await db
        .select()
        .from(approvals)
        .where(
          and(
            status === undefined ? undefined : eq(approvals.status, status),
            keyId === undefined ? undefined : eq(approvals.keyId, keyId),
            executionId === undefined ? undefined : eq(approvals.executionId, executionId),
          ),
        )
        .orderBy(desc(approvals.createdAt), desc(approvals.id))
        .limit(limit)
      return rows.map(toRow)
    },

    async decideApproval({ id, status, note, by, at, leaseUntil }: ApprovalDecision): Promise<ApprovalRow | null> {
      if ((status as ApprovalStatus) === "pending") throw new RangeError("a decision cannot be pending")
      // approved or declined up to its deadline, at it included; expired only once past it
      const deadline = status === "expired" ? lt(approvals.expiresAt, at) : gte(approvals.expiresAt, at)
      const [row] = await db
        .update(approvals)
        .set({ status, note, decidedAt: at, decidedBy: by, resumeLeaseUntil: leaseUntil })
        .where(and(eq(approvals.id, id), eq(approvals.status, "pending"), deadline))
        .returning()
      return row ? toRow(row) : null
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
      return rows.map(toRow).sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    },

    async passPause(approvalId: string, at: number): Promise<boolean> {
      const rows = await db
        .update(approvals)
        .set({ resumePastPauseAt: at })
        .where(and(eq(approvals.id, approvalId), isNull(approvals.resumePastPauseAt), isNull(approvals.resumedAt)))
        .returning({ id: approvals.id })
      return rows.length === 1
    },

    async completeResume({ approvalId, entry, at, next }: ResumeEnd): Promise<void> {
      if (next) sameExecution(entry, next)
      const write = records.statements([entry], { overwrite: true })
      await writeBatch(
        async (tx) => {
          const approval = first(
            await tx
              .select({ executionId: approvals.executionId, resumedAt: approvals.resumedAt })
              .from(approvals)
              .where(eq(approvals.id, approvalId))
              .limit(1),
          )
          if (!approval || approval.resumedAt !== null)
            throw new ResumeConflict({
              approvalId,
              message: approval
                ? `the resume of approval ${approvalId} was recorded already`
                : `approval ${approvalId} is not stored (its execution was deleted)`,
            })
          if (approval.executionId !== entry.execution.id)
            throw new RangeError(
              `approval ${approvalId} is of execution ${approval.executionId}, not ${entry.execution.id}`,
            )
          return [
            ...write(tx),
            // On D1 the read above ran before the batch: two resumes of one approval recorded at the same moment
            // (the first's lease passed while it ran, and another server claimed it) can both pass it. Elsewhere
            // the read is inside the batch's transaction, after its lock.
            tx
              .update(approvals)
              .set({ resumedAt: at })
              .where(and(eq(approvals.id, approvalId), isNull(approvals.resumedAt))),
            ...(next ? [tx.insert(approvals).values(toInsert(next))] : []),
          ]
        },
        { lockKeys: [`resume:${approvalId}`] },
      )
    },
  }
}
