/**
 * Paused calls and their resumes (`approvals`). A pause and a resume's end each write the execution's record (its
 * row written again whole, ./execution-rows.ts), its new tool calls and the approval rows in one batch. Decisions
 * and claims are compare-and-set updates (./approval-decisions.ts).
 */
import { and, desc, eq, isNull } from "drizzle-orm"
import { Data } from "effect"
import type { ExecutionEntry } from "../seams.js"
import { first } from "./chunks.js"
import type { CatalogTables, StoreDialect } from "./dialect.js"
import type { executionRows } from "./execution-rows.js"
import type { ApprovalListQuery, ApprovalRow, ApprovalStatus, ResumeEnd } from "./rows.js"

/**
 * `completeResume` found the approval's resume recorded already (by another server whose lease this one's outlived,
 * or by this one before), or the approval gone with its execution: nothing was written.
 */
export class ResumeConflict extends Data.TaggedError("ResumeConflict")<{ message: string; approvalId: string }> {}

export const isResumeConflict = (error: unknown): error is ResumeConflict =>
  typeof error === "object" && error !== null && (error as { _tag?: unknown })._tag === "ResumeConflict"

export const wholeLimit = (method: string, limit: number) => {
  if (!Number.isInteger(limit) || limit < 1)
    throw new RangeError(`${method} needs a whole number limit of at least 1 (got ${limit})`)
}

export const approvalRow = (row: CatalogTables["approvals"]["$inferSelect"]): ApprovalRow => ({
  ...row,
  status: row.status as ApprovalStatus,
})

export const approvalRows = (
  { db, tables, writeBatch }: StoreDialect,
  records: Pick<ReturnType<typeof executionRows>, "statements">,
) => {
  const { approvals } = tables
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
      return row ? approvalRow(row) : null
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
      return rows.map(approvalRow)
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
