/**
 * Tools: search ranked as `GET /v1/tools?query=` ranks; a tool's page with its TypeScript declaration, where its
 * output type came from, its input schema, its annotations, its effective policy, and a form from the input schema
 * that runs it once.
 */
import type { InferResponseType } from "hono/client"
import { useState } from "preact/hooks"
import { api, errorText } from "../api.js"
import { CodeView } from "../lazy-code.js"
import { RunOutcome, runScript } from "./run-outcome.js"
import type { Run } from "./run-outcome.js"
import { useLoad } from "./use-load.js"

const search = (query: string) => async () => {
  const response = await api.v1.tools.$get({ query: query.trim() ? { query, limit: "50" } : { limit: "200" } })
  if (!response.ok) return { ok: false as const, message: await errorText(response) }
  return { ok: true as const, value: (await response.json()).tools }
}

export const ToolsPage = () => {
  const [query, setQuery] = useState("")
  const [tools] = useLoad(search(query), [query])
  return (
    <main>
      <h1>Tools</h1>
      <form role="search" onSubmit={(e) => e.preventDefault()}>
        <label for="tool-search">Search tools</label>
        <input id="tool-search" type="search" value={query} onInput={(e) => setQuery(e.currentTarget.value)} />
      </form>
      {tools.state === "error" && <p class="error">{tools.message}</p>}
      {tools.state === "ok" && tools.value.length === 0 && <p>No tool matches.</p>}
      {tools.state === "ok" && (
        <ol class="cards" aria-label="Tools">
          {tools.value.map((t) => (
            <li class="card">
              <a href={`#/tools/${encodeURIComponent(t.path)}`}>{t.path}</a>
              {t.description && <p class="hint">{t.description}</p>}
            </li>
          ))}
        </ol>
      )}
    </main>
  )
}

interface Field {
  name: string
  type: string
  required: boolean
  description?: string
}

/** The top-level properties of an object schema; anything else is one JSON field. */
const fieldsOf = (schema: unknown): Field[] | null => {
  const s = schema as {
    type?: unknown
    properties?: Record<string, { type?: unknown; description?: string }>
    required?: string[]
  }
  if (!s || s.type !== "object" || !s.properties) return null
  return Object.entries(s.properties).map(([name, p]) => ({
    name,
    type: typeof p.type === "string" ? p.type : "json",
    required: s.required?.includes(name) ?? false,
    ...(p.description ? { description: p.description } : {}),
  }))
}

const valueOf = (field: Field, text: string): unknown => {
  if (field.type === "number" || field.type === "integer") return Number(text)
  if (field.type === "boolean") return text === "true"
  if (field.type === "string") return text
  return JSON.parse(text)
}

/** The script `switchboard call` runs: the arguments reach it only as a JSON string literal, parsed in the sandbox. */
const callScript = (namespace: string, name: string, args: unknown) => {
  const literal = (value: string) => JSON.stringify(value)
  return `return await tools[${literal(namespace)}][${literal(name)}](JSON.parse(${literal(JSON.stringify(args))}))`
}

const RunForm = ({ namespace, name, schema }: { namespace: string; name: string; schema: unknown }) => {
  const fields = fieldsOf(schema)
  const [values, setValues] = useState<Record<string, string>>({})
  const [run, setRun] = useState<Run | null>(null)
  const submit = async (e: Event) => {
    e.preventDefault()
    let args: Record<string, unknown>
    try {
      args = fields
        ? Object.fromEntries(
            fields
              .filter((f) => (values[f.name] ?? "") !== "" || f.type === "boolean")
              .map((f) => [f.name, valueOf(f, values[f.name] ?? "false")]),
          )
        : (JSON.parse(values.$json || "{}") as Record<string, unknown>)
    } catch (cause) {
      return setRun({ state: "error", message: `not JSON: ${String(cause)}` })
    }
    setRun({ state: "running" })
    setRun(await runScript(callScript(namespace, name, args)))
  }
  const set = (name: string, value: string) => setValues({ ...values, [name]: value })
  return (
    <form class="card" aria-label="Run this tool" onSubmit={submit}>
      <h2>Run it once</h2>
      {fields === null ? (
        <>
          <label for="arg-json">Arguments (JSON)</label>
          <textarea id="arg-json" rows={4} onInput={(e) => set("$json", e.currentTarget.value)} />
        </>
      ) : (
        fields.map((f) => (
          <div key={f.name}>
            <label for={`arg-${f.name}`}>
              {f.name}
              {f.required ? " (required)" : ""}
            </label>
            {f.type === "boolean" ? (
              <input
                id={`arg-${f.name}`}
                type="checkbox"
                onChange={(e) => set(f.name, String(e.currentTarget.checked))}
              />
            ) : f.type === "json" || f.type === "object" || f.type === "array" ? (
              <textarea id={`arg-${f.name}`} rows={3} onInput={(e) => set(f.name, e.currentTarget.value)} />
            ) : (
              <input
                id={`arg-${f.name}`}
                type={f.type === "number" || f.type === "integer" ? "number" : "text"}
                step={f.type === "number" ? "any" : undefined}
                required={f.required}
                onInput={(e) => set(f.name, e.currentTarget.value)}
              />
            )}
            {f.description && <p class="hint">{f.description}</p>}
          </div>
        ))
      )}
      <button type="submit">Run</button>
      {run && <RunOutcome run={run} />}
    </form>
  )
}

type ToolAnnotations = InferResponseType<(typeof api.v1.tools)[":path"]["$get"], 200>["tool"]["annotations"]

const HINTS = [
  ["readOnlyHint", "Read-only", "changes nothing"],
  ["destructiveHint", "Destructive", "may destroy or overwrite"],
  ["idempotentHint", "Idempotent", "calling again with the same arguments changes nothing more"],
  ["openWorldHint", "Open world", "reaches beyond its source"],
] as const

/** What the source declared about the tool: claims, not checked; a hint it did not declare is said so. */
const Annotations = ({ annotations }: { annotations: ToolAnnotations }) => (
  <section aria-labelledby="annotations-heading">
    <h2 id="annotations-heading">Annotations</h2>
    <dl class="facts" data-testid="annotations">
      <dt>Title</dt>
      <dd>{annotations.title ?? "none declared"}</dd>
      {HINTS.map(([hint, label, meaning]) => (
        <>
          <dt>{label}</dt>
          <dd data-hint={hint}>
            {annotations[hint] === undefined ? "not declared" : annotations[hint] ? `yes: ${meaning}` : "no"}
          </dd>
        </>
      ))}
    </dl>
    <p class="hint">
      The source's own claims: the server does not check them. A destructive tool needs approval unless a policy rule
      says otherwise.
    </p>
  </section>
)

const loadTool = (path: string) => async () => {
  const response = await api.v1.tools[":path"].$get({ param: { path } })
  if (!response.ok) return { ok: false as const, message: await errorText(response) }
  return { ok: true as const, value: (await response.json()).tool }
}

export const ToolPage = ({ path, canRun }: { path: string; canRun: boolean }) => {
  const [tool] = useLoad(loadTool(path), [path])
  if (tool.state === "loading") return <main>Loading…</main>
  if (tool.state === "error") return <main class="error">{tool.message}</main>
  const t = tool.value
  return (
    <main>
      <h1>{t.path}</h1>
      {t.description && <p>{t.description}</p>}
      <dl class="facts">
        <dt>Policy</dt>
        <dd data-testid="tool-policy">{t.policy ? `${t.policy.action}: ${t.policy.reason}` : "unknown"}</dd>
        <dt>Output type</dt>
        <dd data-testid="output-source">{t.outputSource ?? "unknown"}</dd>
        <dt>Result encoding</dt>
        <dd>{t.resultEncoding ?? "direct"}</dd>
      </dl>
      <h2>TypeScript</h2>
      {t.typescript ? <CodeView code={t.typescript} label={`${t.path} declaration`} /> : <p>No declaration.</p>}
      <h2>Input schema</h2>
      <pre class="code">{JSON.stringify(t.inputSchema, null, 2)}</pre>
      <Annotations annotations={t.annotations} />
      {canRun && <RunForm namespace={t.namespace} name={t.name} schema={t.inputSchema} />}
    </main>
  )
}
