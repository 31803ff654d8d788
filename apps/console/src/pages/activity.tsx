/**
 * Activity: executions newest first, filtered by status, error code, the source called and the key, paged by cursor
 * (`before`, as the API pages); an execution's page with its code, its result text paged by lines and searched
 * (grep), and its tool calls.
 */
import type { InferResponseType } from "hono/client"
import { useState } from "preact/hooks"
import { api, errorText, when } from "../api.js"
import { CodeView } from "../lazy-code.js"
import { ItemTable } from "../item-table.js"
import { CallsTable } from "./run-outcome.js"
import { useLoad } from "./use-load.js"

type Status = "" | "ok" | "error" | "paused"
const PAGE = 25
/** requests one page may take to fill: under several filters each looks at a bounded window of executions */
const FOLLOW = 5

interface Filters {
  status: Status
  errorCode: string
  source: string
  keyId: string
}

const NO_FILTERS: Filters = { status: "", errorCode: "", source: "", keyId: "" }

type Summary = InferResponseType<typeof api.v1.executions.$get, 200>["executions"][number]

/** a page of up to PAGE executions from `before` on, following the API's `nextBefore` while a page comes back short */
const loadPage = (filters: Filters, before: string | undefined) => async () => {
  const executions: Summary[] = []
  let cursor = before
  for (let request = 0; request < FOLLOW; request++) {
    const query = {
      limit: String(PAGE - executions.length),
      ...Object.fromEntries(Object.entries(filters).filter(([, value]) => value !== "")),
      ...(cursor ? { before: cursor } : {}),
    }
    const response = await api.v1.executions.$get({ query })
    if (!response.ok) return { ok: false as const, message: await errorText(response) }
    const page = await response.json()
    executions.push(...page.executions)
    cursor = page.nextBefore
    if (cursor === undefined || executions.length === PAGE) break
  }
  return { ok: true as const, value: { executions, nextBefore: cursor } }
}

/** the sources and (for an admin of a server with keys) the keys, for the filters' choices */
const loadChoices = (admin: boolean) => async () => {
  const [sources, keys] = await Promise.all([api.v1.sources.$get(), admin ? api.v1.keys.$get() : null])
  return {
    ok: true as const,
    value: {
      sources: sources.ok ? (await sources.json()).sources.map((s) => s.namespace) : [],
      keys: keys?.ok ? (await keys.json()).keys.map((k) => ({ id: k.id, name: k.name })) : [],
    },
  }
}

/** one filter chosen from a list, "any" first */
const Choice = ({
  id,
  label,
  value,
  choices,
  choose,
}: {
  id: string
  label: string
  value: string
  /** value and label of each choice */
  choices: [string, string][]
  choose: (value: string) => void
}) => (
  <div>
    <label for={id}>{label}</label>
    <select id={id} value={value} onChange={(e) => choose(e.currentTarget.value)}>
      <option value="">any</option>
      {choices.map(([choice, text]) => (
        <option value={choice}>{text}</option>
      ))}
    </select>
  </div>
)

const FilterForm = ({ admin, filters, set }: { admin: boolean; filters: Filters; set: (filters: Filters) => void }) => {
  const [choices] = useLoad(loadChoices(admin), [admin])
  const [errorCode, setErrorCode] = useState(filters.errorCode)
  const sources = choices.state === "ok" ? choices.value.sources : []
  const keys = choices.state === "ok" ? choices.value.keys : []
  return (
    <form
      class="filters"
      aria-label="Filters"
      onSubmit={(e) => {
        e.preventDefault()
        set({ ...filters, errorCode: errorCode.trim() })
      }}
    >
      <Choice
        id="status-filter"
        label="Status"
        value={filters.status}
        choices={[
          ["ok", "ok"],
          ["error", "error"],
          ["paused", "paused"],
        ]}
        choose={(status) => set({ ...filters, status: status as Status })}
      />
      <Choice
        id="source-filter"
        label="Source called"
        value={filters.source}
        choices={sources.map((namespace) => [namespace, namespace])}
        choose={(source) => set({ ...filters, source })}
      />
      {keys.length > 0 && (
        <Choice
          id="key-filter"
          label="Key"
          value={filters.keyId}
          choices={keys.map((key) => [key.id, key.name])}
          choose={(keyId) => set({ ...filters, keyId })}
        />
      )}
      <div>
        <label for="error-code-filter">Error code</label>
        <input
          id="error-code-filter"
          value={errorCode}
          placeholder="e.g. runtime_error"
          onInput={(e) => setErrorCode(e.currentTarget.value)}
        />
      </div>
      <button type="submit">Filter</button>
    </form>
  )
}

export const ActivityPage = ({ admin }: { admin: boolean }) => {
  const [filters, setFilters] = useState<Filters>(NO_FILTERS)
  const [cursors, setCursors] = useState<string[]>([])
  const before = cursors.at(-1)
  const [page] = useLoad(loadPage(filters, before), [JSON.stringify(filters), before])
  return (
    <main>
      <h1>Activity</h1>
      <FilterForm
        admin={admin}
        filters={filters}
        set={(next) => {
          setFilters(next)
          setCursors([])
        }}
      />
      {page.state === "error" && (
        <p role="alert" class="error">
          {page.message}
        </p>
      )}
      {page.state === "ok" && (
        <>
          <ItemTable
            testId="executions"
            items={page.value.executions}
            columns={[
              { header: "Started", cell: (e) => <a href={`#/activity/${e.id}`}>{when(e.startedAt)}</a> },
              { header: "Status", cell: (e) => (e.status === "error" ? `error (${e.errorCode})` : e.status) },
              { header: "Calls", cell: (e) => e.toolCallCount },
              { header: "Code", cell: (e) => <code>{e.codePreview}</code>, class: () => "wrap" },
            ]}
            rowData={(e) => ({ "data-execution": e.id })}
          />
          {page.value.executions.length === 0 && <p>No execution matches{page.value.nextBefore ? " yet" : ""}.</p>}
          {page.value.executions.length < PAGE && page.value.nextBefore && (
            <p class="hint">Not every older execution was looked at: Older looks further back.</p>
          )}
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
