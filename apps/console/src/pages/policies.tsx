/** Policy rules, for admins: list, add, remove; and what applies where no rule matches. */
import { useState } from "preact/hooks"
import { api, errorText } from "../api.js"
import { ItemTable, Notice, useAction } from "../item-table.js"
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
  const { message, act } = useAction(reload)
  const add = async (e: Event) => {
    e.preventDefault()
    if (await act(api.v1.policies.$post({ json: { pattern, action, ...(reason ? { reason } : {}) } }))) setPattern("")
  }
  return (
    <main>
      <h1>Policies</h1>
      <Notice message={message} />
      {policies.state === "error" && <p class="error">{policies.message}</p>}
      {policies.state === "ok" && (
        <>
          <p>Where no rule matches: {policies.value.defaultPolicy}</p>
          <ItemTable
            items={policies.value.policies}
            columns={[
              { header: "Pattern", cell: (p) => p.pattern ?? "any" },
              { header: "Source", cell: (p) => p.source ?? "any" },
              { header: "Action", cell: (p) => p.action },
              { header: "Reason", cell: (p) => p.reason ?? "" },
            ]}
            rowData={(p) => ({ "data-policy": p.pattern ?? "*" })}
            name={(p) => p.pattern ?? "rule"}
            actionsHeader="Remove"
            remove={{ verb: "Remove", run: (p) => api.v1.policies[":id"].$delete({ param: { id: p.id } }) }}
            act={act}
          />
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
