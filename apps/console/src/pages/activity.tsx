/**
 * Activity: executions newest first, filtered by status, paged by cursor (`before`, as the API pages); an execution's
 * page with its code, its result text paged by lines and searched (grep), and its tool calls.
 */
import { useState } from "preact/hooks"
import { api, errorText, when } from "../api.js"
import { CodeView } from "../lazy-code.js"
import { CallsTable } from "./run-outcome.js"
import { useLoad } from "./use-load.js"

type Status = "" | "ok" | "error" | "paused"
const PAGE = 25

const loadPage = (status: Status, before: string | undefined) => async () => {
  const query = { limit: String(PAGE), ...(status ? { status } : {}), ...(before ? { before } : {}) }
  const response = await api.v1.executions.$get({ query })
  if (!response.ok) return { ok: false as const, message: await errorText(response) }
  return { ok: true as const, value: await response.json() }
}

export const ActivityPage = () => {
  const [status, setStatus] = useState<Status>("")
  const [cursors, setCursors] = useState<string[]>([])
  const before = cursors.at(-1)
  const [page] = useLoad(loadPage(status, before), [status, before])
  return (
    <main>
      <h1>Activity</h1>
      <label for="status-filter">Status</label>
      <select
        id="status-filter"
        value={status}
        onChange={(e) => {
          setStatus(e.currentTarget.value as Status)
          setCursors([])
        }}
      >
        <option value="">any</option>
        <option value="ok">ok</option>
        <option value="error">error</option>
        <option value="paused">paused</option>
      </select>
      {page.state === "error" && <p class="error">{page.message}</p>}
      {page.state === "ok" && (
        <>
          <div class="table-wrap" tabIndex={0}>
            <table data-testid="executions">
              <thead>
                <tr>
                  <th scope="col">Started</th>
                  <th scope="col">Status</th>
                  <th scope="col">Calls</th>
                  <th scope="col">Code</th>
                </tr>
              </thead>
              <tbody>
                {page.value.executions.map((e) => (
                  <tr>
                    <td>
                      <a href={`#/activity/${e.id}`}>{when(e.startedAt)}</a>
                    </td>
                    <td>{e.status === "error" ? `error (${e.errorCode})` : e.status}</td>
                    <td>{e.toolCallCount}</td>
                    <td class="wrap">
                      <code>{e.codePreview}</code>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {cursors.length > 0 && (
            <button type="button" onClick={() => setCursors(cursors.slice(0, -1))}>
              Newer
            </button>
          )}
          {page.value.nextBefore && (
            <button type="button" onClick={() => setCursors([...cursors, page.value.nextBefore!])}>
              Older
            </button>
          )}
        </>
      )}
    </main>
  )
}

const loadExecution = (id: string) => async () => {
  const response = await api.v1.executions[":id"].$get({ param: { id } })
  if (!response.ok) return { ok: false as const, message: await errorText(response) }
  return { ok: true as const, value: (await response.json()).execution }
}

const LINES = 50

const Output = ({ id }: { id: string }) => {
  const [offset, setOffset] = useState(0)
  const [pattern, setPattern] = useState("")
  const [grep, setGrep] = useState("")
  const [page] = useLoad(async () => {
    const response = await api.v1.executions[":id"].output.$get({
      param: { id },
      query: grep ? { grep } : { offset: String(offset), limit: String(LINES) },
    })
    if (!response.ok) return { ok: false as const, message: await errorText(response) }
    return { ok: true as const, value: (await response.json()) as Record<string, unknown> }
  }, [id, offset, grep])
  const body = page.state === "ok" ? page.value : null
  const lines = (body?.lines as string[] | undefined) ?? null
  const matches = (body?.matches as { line: number; text: string }[] | undefined) ?? null
  return (
    <section aria-label="Result text">
      <h2>Result text</h2>
      <form
        role="search"
        onSubmit={(e) => {
          e.preventDefault()
          setGrep(pattern)
        }}
      >
        <label for="grep">Search the result (a regular expression)</label>
        <input id="grep" value={pattern} onInput={(e) => setPattern(e.currentTarget.value)} />
        <button type="submit">Search</button>
        {grep && (
          <button type="button" onClick={() => (setGrep(""), setPattern(""))}>
            Show all
          </button>
        )}
      </form>
      {page.state === "error" && <p class="error">{page.message}</p>}
      {matches && (
        <pre class="code" data-testid="matches">
          {matches.length === 0 ? "no line matches" : matches.map((m) => `${m.line + 1}: ${m.text}`).join("\n")}
        </pre>
      )}
      {lines && body && (
        <>
          <p class="hint">
            lines {offset + 1}–{offset + lines.length} of {String(body.totalLines)}
          </p>
          <pre class="code" data-testid="output">
            {lines.join("\n")}
          </pre>
          {offset > 0 && (
            <button type="button" onClick={() => setOffset(Math.max(0, offset - LINES))}>
              Previous lines
            </button>
          )}
          {typeof body.nextOffset === "number" && (
            <button type="button" onClick={() => setOffset(body.nextOffset as number)}>
              Next lines
            </button>
          )}
        </>
      )}
    </section>
  )
}

export const ExecutionPage = ({ id }: { id: string }) => {
  const [execution] = useLoad(loadExecution(id), [id])
  if (execution.state === "loading") return <main>Loading…</main>
  if (execution.state === "error") return <main class="error">{execution.message}</main>
  const e = execution.value
  return (
    <main>
      <h1>Execution {e.id}</h1>
      <dl class="facts">
        <dt>Status</dt>
        <dd data-testid="execution-status">{e.status}</dd>
        <dt>Started</dt>
        <dd>{when(e.startedAt)}</dd>
        <dt>Duration</dt>
        <dd>{e.durationMs} ms</dd>
        {e.errorCode && (
          <>
            <dt>Error</dt>
            <dd>
              {e.errorCode}: {e.errorMessage}
            </dd>
          </>
        )}
      </dl>
      <h2>Code</h2>
      <CodeView code={e.code} label="The script" />
      {e.resultText !== null && <Output id={e.id} />}
      <h2>Tool calls</h2>
      <CallsTable calls={e.calls} />
    </main>
  )
}
