/** API keys, for admins: create (its secret shown once), list, revoke. A server that checks no key manages none. */
import { useState } from "preact/hooks"
import { api, errorText } from "../api.js"
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
  const [message, setMessage] = useState("")
  if (!keyed)
    return (
      <main>
        <h1>Keys</h1>
        <p>This server checks no API key (a loopback server without --require-key), so it manages none.</p>
      </main>
    )
  const create = async (e: Event) => {
    e.preventDefault()
    const response = await api.v1.keys.$post({ json: { name, scopes: [scope] } })
    if (!response.ok) return setMessage(await errorText(response))
    setSecret((await response.json()).secret)
    setName("")
    setMessage("")
    reload()
  }
  const revoke = async (id: string) => {
    const response = await api.v1.keys[":id"].$delete({ param: { id } })
    setMessage(response.ok ? "" : await errorText(response))
    reload()
  }
  return (
    <main>
      <h1>Keys</h1>
      {message && (
        <p role="alert" class="error">
          {message}
        </p>
      )}
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
        <div class="table-wrap" tabIndex={0}>
          <table>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Scope</th>
                <th scope="col">Created</th>
                <th scope="col">State</th>
              </tr>
            </thead>
            <tbody>
              {keys.value.map((k) => (
                <tr data-key={k.name}>
                  <td>{k.name}</td>
                  <td>{k.scope ?? "none"}</td>
                  <td>{new Date(k.createdAt).toLocaleString()}</td>
                  <td>
                    {k.revokedAt === null ? (
                      <button type="button" class="danger" onClick={() => revoke(k.id)}>
                        Revoke <span class="visually-hidden">{k.name}</span>
                      </button>
                    ) : (
                      "revoked"
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </main>
  )
}
