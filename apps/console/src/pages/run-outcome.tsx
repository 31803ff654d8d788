/**
 * One run of a script (`POST /v1/execute`) and what it came to, as the tool form and the playground show it: the
 * result as the model sees it (`text`), the raw value, the logs, images inline, each tool call (from the stored
 * execution), or the approval it paused at.
 */
import { api, errorText } from "../api.js"
import { ItemTable } from "../item-table.js"

type Answer = Record<string, unknown> & { executionId?: string }
export type Run =
  | { state: "running" }
  | { state: "error"; message: string }
  | { state: "done"; answer: Answer; calls: CallRow[] }

interface CallRow {
  toolPath: string
  durationMs: number
  ok: boolean
  errorCode: string | null
  encoding: string
}

export const runScript = async (code: string): Promise<Run> => {
  const response = await api.v1.execute.$post({ json: { code } })
  if (response.status !== 200 && response.status !== 202) return { state: "error", message: await errorText(response) }
  const answer = (await response.json()) as Answer
  let calls: CallRow[] = []
  if (answer.executionId) {
    const stored = await api.v1.executions[":id"].$get({ param: { id: answer.executionId } })
    if (stored.ok) calls = (await stored.json()).execution.calls
  }
  return { state: "done", answer, calls }
}

interface Media {
  type: string
  data?: string
  mimeType?: string
}

const isImage = (block: unknown): block is Media & { data: string; mimeType: string } => {
  const m = block as Media | null
  return (
    typeof m === "object" &&
    m !== null &&
    m.type === "image" &&
    typeof m.data === "string" &&
    typeof m.mimeType === "string" &&
    m.mimeType.startsWith("image/")
  )
}

const blocks = (value: unknown): unknown[] => (Array.isArray(value) ? value : [value])

/**
 * The images to show: the media the run answered (image blocks the script returned or emitted), and those in a
 * tool's result returned whole (`return await tools.x.y()`, as the tool page's form runs a tool: its `data` or its
 * `content`), which the server leaves in the value.
 */
const imagesOf = (media: Media[] | undefined, result: unknown) => {
  const tool = typeof result === "object" && result !== null ? (result as { data?: unknown; content?: unknown }) : {}
  return [...(media ?? []), ...blocks(tool.data), ...blocks(tool.content)].filter(isImage)
}

export const RunOutcome = ({ run }: { run: Run }) => {
  if (run.state === "running") return <p role="status">Running…</p>
  if (run.state === "error")
    return (
      <p role="alert" class="error">
        {run.message}
      </p>
    )
  const a = run.answer as {
    ok?: boolean
    status?: string
    text?: string
    result?: unknown
    error?: { code: string; message: string }
    logs?: { level: string; message: string }[]
    media?: Media[]
    executionId?: string
    approval?: { id: string; url?: string }
    truncated?: { totalLines: number; totalChars: number }
  }
  return (
    <section class="outcome" aria-label="Outcome">
      <p role="status" data-testid="run-status">
        {a.status === "paused" ? "paused for an approval" : a.ok ? "ok" : `error (${a.error?.code})`}
        {a.executionId && (
          <>
            {" "}
            · <a href={`#/activity/${a.executionId}`}>execution {a.executionId}</a>
          </>
        )}
      </p>
      {a.status === "paused" && a.approval && <a href={`#/approvals/${a.approval.id}`}>Decide the approval</a>}
      {a.error && <pre class="code error">{a.error.message}</pre>}
      {a.text !== undefined && (
        <>
          <h3>As the model sees it</h3>
          <pre class="code" data-testid="run-text">
            {a.text}
          </pre>
          {a.truncated && a.executionId && (
            <p>
              The model saw the first lines of {a.truncated.totalLines}:{" "}
              <a href={`#/activity/${a.executionId}`}>read them all, by page or by search</a>
            </p>
          )}
          <h3>Raw value</h3>
          <pre class="code" data-testid="run-raw">
            {JSON.stringify(a.result, null, 2)}
          </pre>
        </>
      )}
      {imagesOf(a.media, a.result).map((m, i) => (
        <img class="media" src={`data:${m.mimeType};base64,${m.data}`} alt={`image ${i + 1} the script returned`} />
      ))}
      {a.logs && a.logs.length > 0 && (
        <>
          <h3>Logs</h3>
          <pre class="code">{a.logs.map((l) => `[${l.level}] ${l.message}`).join("\n")}</pre>
        </>
      )}
      <h3>Tool calls</h3>
      <CallsTable calls={run.calls} />
    </section>
  )
}

export const CallsTable = ({ calls }: { calls: CallRow[] }) =>
  calls.length === 0 ? (
    <p>None.</p>
  ) : (
    <ItemTable
      testId="calls"
      items={calls}
      columns={[
        { header: "Tool", cell: (c) => c.toolPath },
        { header: "Outcome", cell: (c) => (c.ok ? "ok" : (c.errorCode ?? "error")) },
        { header: "Duration", cell: (c) => `${c.durationMs} ms` },
        { header: "Encoding", cell: (c) => c.encoding },
      ]}
    />
  )
