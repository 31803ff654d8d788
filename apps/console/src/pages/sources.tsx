/**
 * Sources: each with its status, tool count, last sync, OAuth login and error; an admin adds one (./add-source.tsx),
 * syncs, changes its secrets, connects one that logs in with OAuth (./source-login.tsx) and removes.
 */
import type { InferResponseType } from "hono/client"
import { useState } from "preact/hooks"
import { api, errorText, when } from "../api.js"
import type { Access } from "../api.js"
import { ItemTable, Notice, useAction } from "../item-table.js"
import { AddSource } from "./add-source.js"
import { LoginWatch, beginLogin } from "./source-login.js"
import type { Login } from "./source-login.js"
import { useLoad } from "./use-load.js"

const loadSources = async () => {
  const response = await api.v1.sources.$get()
  if (!response.ok) return { ok: false as const, message: await errorText(response) }
  return { ok: true as const, value: (await response.json()).sources }
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
    const answer = await response.json()
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

type Source = InferResponseType<typeof api.v1.sources.$get, 200>["sources"][number]

/** a source's OAuth login as the list shows it: its state, until when, and the scopes granted */
const authText = (auth: Source["auth"]) => {
  if (!auth) return ""
  const until = auth.expiresAt ? ` until ${when(auth.expiresAt)}` : ""
  const scopes = auth.scopes.length > 0 ? ` (${auth.scopes.join(" ")})` : ""
  return `${auth.status.replace("_", " ")}${auth.status === "connected" ? until + scopes : ""}`
}

export const SourcesPage = ({ access }: { access: Access }) => {
  const [sources, reload] = useLoad(loadSources, [])
  const { message, setMessage, act } = useAction(reload)
  const [patching, setPatching] = useState<{ namespace: string; kind: string } | null>(null)
  const [login, setLogin] = useState<Login | null>(null)
  const connect = async (namespace: string) => {
    const begun = await beginLogin(namespace)
    setMessage(begun.ok ? "" : begun.message)
    setLogin(begun.ok ? begun.login : null)
  }
  return (
    <main>
      <h1>Sources</h1>
      <Notice message={message} />
      {login && (
        <LoginWatch
          login={login}
          done={(text) => {
            setLogin(null)
            setMessage(text)
            reload()
          }}
        />
      )}
      {sources.state === "loading" && <p>Loading…</p>}
      {sources.state === "error" && <p class="error">{sources.message}</p>}
      {sources.state === "ok" && sources.value.length === 0 && <p>No sources yet.</p>}
      {sources.state === "ok" && sources.value.length > 0 && (
        <ItemTable
          items={sources.value}
          columns={[
            { header: "Namespace", cell: (s) => s.namespace },
            { header: "Kind", cell: (s) => s.kind },
            { header: "Status", cell: (s) => s.status, class: (s) => `status-${s.status}` },
            { header: "Tools", cell: (s) => s.toolCount },
            { header: "Last sync", cell: (s) => when(s.lastSyncedAt) },
            { header: "Login", cell: (s) => authText(s.auth), class: () => "auth" },
            { header: "Error", cell: (s) => s.syncError ?? "", class: () => "wrap" },
          ]}
          rowData={(s) => ({ "data-source": s.namespace })}
          name={(s) => s.namespace}
          actions={
            access.admin
              ? (s) => (
                  <>
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
                    {/* a machine source (client credentials) without a token gets one by a sync, not a login */}
                    {s.auth && s.auth.status !== "connected" && s.auth.status !== "no_token" && (
                      <button type="button" onClick={() => connect(s.namespace)}>
                        Connect <span class="visually-hidden">{s.namespace}</span>
                      </button>
                    )}
                  </>
                )
              : undefined
          }
          remove={
            access.admin
              ? {
                  verb: "Remove",
                  run: (s) => api.v1.sources[":namespace"].$delete({ param: { namespace: s.namespace } }),
                  confirm: (s) => `Remove ${s.namespace} and its tools?`,
                }
              : undefined
          }
          act={act}
        />
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
