/** API keys, for admins: create (its secret shown once), list, revoke. A server that checks no key manages none. */
import { useState } from "preact/hooks"
import { api, errorText } from "../api.js"
import { ItemTable, Notice, useAction } from "../item-table.js"
import { useLoad } from "./use-load.js"

const loadKeys = async () => {
  const response = await api.v1.keys.$get()
  if (!response.ok) return { ok: false as const, message: await errorText(response) }
  return { ok: true as const, value: (await response.json()).keys }
}

type Scope = "read" | "execute" | "admin"

export const KeysPage = ({ keyed }: { keyed: boolean }) => {
  const [keys, reload] = useLoad(loadKeys, [])
  const [name, setName] = useState("")
  const [scope, setScope] = useState<Scope>("execute")
  const [secret, setSecret] = useState("")
  const { message, act } = useAction(reload)
  if (!keyed)
    return (
      <main>
        <h1>Keys</h1>
        <p>This server checks no API key (a loopback server without --require-key), so it manages none.</p>
      </main>
    )
  const create = async (e: Event) => {
    e.preventDefault()
    await act(api.v1.keys.$post({ json: { name, scopes: [scope] } }), async (response) => {
      setSecret(((await response.json()) as { secret: string }).secret)
      setName("")
      return ""
    })
  }
  return (
    <main>
      <h1>Keys</h1>
      <Notice message={message} />
      <form class="card" aria-label="Create a key" onSubmit={create}>
        <label for="key-name">Name</label>
        <input id="key-name" required value={name} onInput={(e) => setName(e.currentTarget.value)} />
        <label for="key-scope">Scope</label>
        <select id="key-scope" value={scope} onChange={(e) => setScope(e.currentTarget.value as Scope)}>
          <option value="read">read</option>
          <option value="execute">execute</option>
          <option value="admin">admin</option>
        </select>
        <button type="submit">Create</button>
      </form>
      {secret && (
        <div class="card" role="status">
          <p>The new key, shown this once:</p>
          <pre class="code" data-testid="new-secret">
            {secret}
          </pre>
        </div>
      )}
      {keys.state === "error" && <p class="error">{keys.message}</p>}
      {keys.state === "ok" && (
        <ItemTable
          items={keys.value}
          columns={[
            { header: "Name", cell: (k) => k.name },
            { header: "Scope", cell: (k) => k.scope ?? "none" },
            { header: "Created", cell: (k) => new Date(k.createdAt).toLocaleString() },
          ]}
          rowData={(k) => ({ "data-key": k.name })}
          name={(k) => k.name}
          actionsHeader="State"
          remove={{
            verb: "Revoke",
            run: (k) => api.v1.keys[":id"].$delete({ param: { id: k.id } }),
            instead: (k) => (k.revokedAt === null ? null : "revoked"),
          }}
          act={act}
        />
      )}
    </main>
  )
}
