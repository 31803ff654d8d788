/**
 * Approvals: the paused calls waiting for a person, and one approval's page, which the paused text links to. Each
 * shows the tool, the arguments in full as safe JSON (control, bidi and zero-width characters as `\uXXXX`), the
 * reason and the deadline; approve or decline with a note. The pages ask again every few seconds, so a decision
 * made elsewhere (the CLI, another tab, MCP elicitation) shows here.
 */
import { useEffect, useState } from "preact/hooks"
import { escapeUnsafe, safeJson } from "@switchboard/api/args-preview"
import { api, errorText, when } from "../api.js"
import { useLoad } from "./use-load.js"

const POLL_MS = 3_000

const usePoll = (reload: () => void) =>
  useEffect(() => {
    const timer = setInterval(reload, POLL_MS)
    return () => clearInterval(timer)
  }, [reload])

const loadPending = async () => {
  const response = await api.v1.approvals.$get({ query: { status: "pending" } })
  if (!response.ok) return { ok: false as const, message: await errorText(response) }
  return { ok: true as const, value: (await response.json()).approvals }
}

export const ApprovalsPage = () => {
  const [pending, reload] = useLoad(loadPending, [])
  usePoll(reload)
  return (
    <main>
      <h1>Approvals</h1>
      {pending.state === "error" && <p class="error">{pending.message}</p>}
      {pending.state === "ok" && pending.value.length === 0 && <p>Nothing waits for a decision.</p>}
      {pending.state === "ok" && pending.value.length > 0 && (
        <ul class="cards">
          {pending.value.map((a) => (
            <li class="card">
              <a href={`#/approvals/${a.id}`}>{escapeUnsafe(a.tool)}</a>
              <p>{escapeUnsafe(a.reason)}</p>
              <p class="hint">decide by {when(a.expiresAt)}</p>
            </li>
          ))}
        </ul>
      )}
    </main>
  )
}

const loadOne = (id: string) => async () => {
  const response = await api.v1.approvals[":id"].$get({ param: { id } })
  if (!response.ok) return { ok: false as const, message: await errorText(response) }
  return { ok: true as const, value: (await response.json()).approval }
}

export const ApprovalPage = ({ id }: { id: string }) => {
  const [approval, reload] = useLoad(loadOne(id), [id])
  usePoll(reload)
  const [note, setNote] = useState("")
  const [outcome, setOutcome] = useState("")
  const decide = async (decision: "approve" | "decline") => {
    const response = await api.v1.approvals[":id"].$post({
      param: { id },
      query: { wait: "30s" },
      json: { decision, ...(note.trim() ? { note: note.trim() } : {}) },
    })
    if (!response.ok) return setOutcome(await errorText(response))
    const body = await response.json()
    const execution = "execution" in body ? (body.execution as { status?: string } | undefined) : undefined
    setOutcome(execution?.status ? `${decision}d; the execution resumed and is ${execution.status}` : `${decision}d`)
    reload()
  }
  if (approval.state === "loading") return <main>Loading…</main>
  if (approval.state === "error") return <main class="error">{approval.message}</main>
  const a = approval.value
  return (
    <main>
      <h1>Approval of {escapeUnsafe(a.tool)}</h1>
      <dl class="facts">
        <dt>Status</dt>
        <dd data-testid="approval-status">{a.status}</dd>
        <dt>Reason</dt>
        <dd>{escapeUnsafe(a.reason)}</dd>
        <dt>Deadline</dt>
        <dd>{when(a.expiresAt)}</dd>
        <dt>Execution</dt>
        <dd>{a.executionId}</dd>
        {a.note !== null && (
          <>
            <dt>Note</dt>
            <dd>{escapeUnsafe(a.note)}</dd>
          </>
        )}
      </dl>
      <h2>Arguments</h2>
      <pre class="code" data-testid="approval-args">
        {safeJson(a.args, 2)}
      </pre>
      {a.status === "pending" && (
        <form class="card" aria-label="Decide" onSubmit={(e) => e.preventDefault()}>
          <label for="approval-note">Note (optional; the script sees it on a decline)</label>
          <textarea id="approval-note" rows={2} value={note} onInput={(e) => setNote(e.currentTarget.value)} />
          <div class="actions">
            <button type="button" onClick={() => decide("approve")}>
              Approve
            </button>
            <button type="button" class="danger" onClick={() => decide("decline")}>
              Decline
            </button>
          </div>
        </form>
      )}
      {outcome && <p role="status">{outcome}</p>}
    </main>
  )
}
