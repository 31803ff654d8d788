/** Sources: each with its status, last sync, error and tool count; an admin adds (stdio or http), syncs and removes. */
import { useState } from "preact/hooks"
import { api, errorText, when } from "../api.js"
import type { Access } from "../api.js"
import { useLoad } from "./use-load.js"

const loadSources = async () => {
  const response = await api.v1.sources.$get()
  if (!response.ok) return { ok: false as const, message: await errorText(response) }
  return { ok: true as const, value: (await response.json()).sources }
}

const lines = (text: string) =>
  text
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l !== "")

const AddSource = ({ added }: { added: () => void }) => {
  const [type, setType] = useState<"stdio" | "http">("stdio")
  const [namespace, setNamespace] = useState("")
  const [command, setCommand] = useState("")
  const [args, setArgs] = useState("")
  const [url, setUrl] = useState("")
  const [message, setMessage] = useState("")
  const [busy, setBusy] = useState(false)
  const submit = async (e: Event) => {
    e.preventDefault()
    setBusy(true)
    setMessage("")
    const transport = type === "stdio" ? { type, command, args: lines(args) } : { type, url }
    const response = await api.v1.sources.$post({ json: { namespace, kind: "mcp", transport } })
    setBusy(false)
    if (!response.ok) return setMessage(await errorText(response))
    setNamespace("")
    added()
  }
  return (
    <form class="card" aria-label="Add a source" onSubmit={submit}>
      <h2>Add an MCP source</h2>
      <label for="source-namespace">Namespace</label>
      <input id="source-namespace" required value={namespace} onInput={(e) => setNamespace(e.currentTarget.value)} />
      <fieldset>
        <legend>Transport</legend>
        <label>
          <input type="radio" name="transport" checked={type === "stdio"} onChange={() => setType("stdio")} /> stdio
        </label>
        <label>
          <input type="radio" name="transport" checked={type === "http"} onChange={() => setType("http")} /> http
        </label>
        <p class="hint">
          A stdio source runs a command on the server's host: the server refuses it unless it was started to allow it.
        </p>
      </fieldset>
      {type === "stdio" ? (
        <>
          <label for="source-command">Command</label>
          <input id="source-command" required value={command} onInput={(e) => setCommand(e.currentTarget.value)} />
          <label for="source-args">Arguments, one a line</label>
          <textarea id="source-args" rows={3} value={args} onInput={(e) => setArgs(e.currentTarget.value)} />
        </>
      ) : (
        <>
          <label for="source-url">URL</label>
          <input id="source-url" type="url" required value={url} onInput={(e) => setUrl(e.currentTarget.value)} />
        </>
      )}
      <button type="submit" disabled={busy}>
        {busy ? "Adding…" : "Add and sync"}
      </button>
      {message && (
        <p role="alert" class="error">
          {message}
        </p>
      )}
    </form>
  )
}

/**
 * PATCH /v1/sources/:namespace: the transport's secret fields, replaced whole (stdio: env, args; http: headers,
 * url), then a re-sync. The answer names what it dropped.
 */
const ChangeSecrets = ({
  namespace,
  kind,
  done,
}: {
  namespace: string
  kind: string
  done: (message: string) => void
}) => {
  const [text, setText] = useState(kind === "mcp" ? '{ "transport": { "env": {} } }' : "{}")
  const submit = async (e: Event) => {
    e.preventDefault()
    let body: Record<string, unknown>
    try {
      body = JSON.parse(text) as Record<string, unknown>
    } catch (cause) {
      return done(`not JSON: ${String(cause)}`)
    }
    const response = await api.v1.sources[":namespace"].$patch({ param: { namespace }, json: body })
    if (!response.ok) return done(await errorText(response))
    // the PATCH body is checked by the source's kind, so the client does not type this route's answer
    const answer = (await response.json()) as { dropped: string[] }
    done(answer.dropped.length > 0 ? `replaced; dropped ${answer.dropped.join(", ")}` : "")
  }
  return (
    <form class="card" aria-label={`Change the secrets of ${namespace}`} onSubmit={submit}>
      <label for={`patch-${namespace}`}>Fields to replace (JSON): stdio env or args, http headers or url</label>
      <textarea id={`patch-${namespace}`} rows={3} value={text} onInput={(e) => setText(e.currentTarget.value)} />
      <button type="submit">Replace and sync</button>
    </form>
  )
}

export const SourcesPage = ({ access }: { access: Access }) => {
  const [sources, reload] = useLoad(loadSources, [])
  const [message, setMessage] = useState("")
  const [patching, setPatching] = useState<{ namespace: string; kind: string } | null>(null)
  const act = async (response: Promise<Response>) => {
    const answer = await response
    setMessage(answer.ok ? "" : await errorText(answer))
    reload()
  }
  return (
    <main>
      <h1>Sources</h1>
      {message && (
        <p role="alert" class="error">
          {message}
        </p>
      )}
      {sources.state === "loading" && <p>Loading…</p>}
      {sources.state === "error" && <p class="error">{sources.message}</p>}
      {sources.state === "ok" && sources.value.length === 0 && <p>No sources yet.</p>}
      {sources.state === "ok" && sources.value.length > 0 && (
        <div class="table-wrap" tabIndex={0}>
          <table>
            <thead>
              <tr>
                <th scope="col">Namespace</th>
                <th scope="col">Kind</th>
                <th scope="col">Status</th>
                <th scope="col">Tools</th>
                <th scope="col">Last sync</th>
                <th scope="col">Error</th>
                {access.admin && <th scope="col">Actions</th>}
              </tr>
            </thead>
            <tbody>
              {sources.value.map((s) => (
                <tr data-source={s.namespace}>
                  <td>{s.namespace}</td>
                  <td>{s.kind}</td>
                  <td class={`status-${s.status}`}>{s.status}</td>
                  <td>{s.toolCount}</td>
                  <td>{when(s.lastSyncedAt)}</td>
                  <td class="wrap">{s.syncError ?? ""}</td>
                  {access.admin && (
                    <td class="actions">
                      <button
                        type="button"
                        onClick={() =>
                          act(api.v1.sources[":namespace"].sync.$post({ param: { namespace: s.namespace } }))
                        }
                      >
                        Sync <span class="visually-hidden">{s.namespace}</span>
                      </button>
                      <button type="button" onClick={() => setPatching({ namespace: s.namespace, kind: s.kind })}>
                        Secrets <span class="visually-hidden">of {s.namespace}</span>
                      </button>
                      <button
                        type="button"
                        class="danger"
                        onClick={() =>
                          confirm(`Remove ${s.namespace} and its tools?`) &&
                          act(api.v1.sources[":namespace"].$delete({ param: { namespace: s.namespace } }))
                        }
                      >
                        Remove <span class="visually-hidden">{s.namespace}</span>
                      </button>
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {access.admin && patching && (
        <ChangeSecrets
          {...patching}
          done={(text) => {
            setMessage(text)
            setPatching(null)
            reload()
          }}
        />
      )}
      {access.admin && <AddSource added={reload} />}
    </main>
  )
}
