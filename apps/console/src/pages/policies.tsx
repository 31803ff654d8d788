/** Policy rules, for admins: list, add, remove; and what applies where no rule matches. */
import { useState } from "preact/hooks"
import { api, errorText } from "../api.js"
import { useLoad } from "./use-load.js"

const loadPolicies = async () => {
  const response = await api.v1.policies.$get()
  if (!response.ok) return { ok: false as const, message: await errorText(response) }
  return { ok: true as const, value: await response.json() }
}

type Action = "allow" | "require_approval" | "block"

export const PoliciesPage = () => {
  const [policies, reload] = useLoad(loadPolicies, [])
  const [pattern, setPattern] = useState("")
  const [action, setAction] = useState<Action>("require_approval")
  const [reason, setReason] = useState("")
  const [message, setMessage] = useState("")
  const add = async (e: Event) => {
    e.preventDefault()
    const response = await api.v1.policies.$post({ json: { pattern, action, ...(reason ? { reason } : {}) } })
    setMessage(response.ok ? "" : await errorText(response))
    if (response.ok) setPattern("")
    reload()
  }
  const remove = async (id: string) => {
    const response = await api.v1.policies[":id"].$delete({ param: { id } })
    setMessage(response.ok ? "" : await errorText(response))
    reload()
  }
  return (
    <main>
      <h1>Policies</h1>
      {message && (
        <p role="alert" class="error">
          {message}
        </p>
      )}
      {policies.state === "error" && <p class="error">{policies.message}</p>}
      {policies.state === "ok" && (
        <>
          <p>Where no rule matches: {policies.value.defaultPolicy}</p>
          <div class="table-wrap" tabIndex={0}>
            <table>
              <thead>
                <tr>
                  <th scope="col">Pattern</th>
                  <th scope="col">Source</th>
                  <th scope="col">Action</th>
                  <th scope="col">Reason</th>
                  <th scope="col">Remove</th>
                </tr>
              </thead>
              <tbody>
                {policies.value.policies.map((p) => (
                  <tr data-policy={p.pattern ?? "*"}>
                    <td>{p.pattern ?? "any"}</td>
                    <td>{p.source ?? "any"}</td>
                    <td>{p.action}</td>
                    <td>{p.reason ?? ""}</td>
                    <td>
                      <button type="button" class="danger" onClick={() => remove(p.id)}>
                        Remove <span class="visually-hidden">{p.pattern ?? "rule"}</span>
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
      <form class="card" aria-label="Add a rule" onSubmit={add}>
        <label for="policy-pattern">Tool path pattern (`*` for any run of characters)</label>
        <input id="policy-pattern" required value={pattern} onInput={(e) => setPattern(e.currentTarget.value)} />
        <label for="policy-action">Action</label>
        <select id="policy-action" value={action} onChange={(e) => setAction(e.currentTarget.value as Action)}>
          <option value="allow">allow</option>
          <option value="require_approval">require approval</option>
          <option value="block">block</option>
        </select>
        <label for="policy-reason">Reason</label>
        <input id="policy-reason" value={reason} onInput={(e) => setReason(e.currentTarget.value)} />
        <button type="submit">Add rule</button>
      </form>
    </main>
  )
}
