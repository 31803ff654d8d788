/**
 * Adding a source: an MCP server over stdio or http, or a REST API by its OpenAPI spec (a URL, or the spec pasted).
 * The body is POST /v1/sources's, and the server checks it: its refusals (the stdio gate, a spec it cannot read, a
 * private address) are shown as it words them.
 */
import { useState } from "preact/hooks"
import { api, errorText } from "../api.js"

type Kind = "stdio" | "http" | "openapi"

const lines = (text: string) =>
  text
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l !== "")

/** the kind's fields of the body, or why they cannot be sent */
type Fields = { ok: true; fields: Record<string, unknown> } | { ok: false; message: string }

const OpenApiFields = ({ onChange }: { onChange: (fields: Fields) => void }) => {
  const [by, setBy] = useState<"url" | "inline">("url")
  const [values, setValues] = useState({ url: "", inline: "", baseUrl: "", auth: "" })
  const set = (name: keyof typeof values, value: string) => {
    const next = { ...values, [name]: value }
    setValues(next)
    onChange(openApiFields(by, next))
  }
  const choose = (choice: "url" | "inline") => {
    setBy(choice)
    onChange(openApiFields(choice, values))
  }
  return (
    <>
      <fieldset>
        <legend>Spec</legend>
        <label>
          <input type="radio" name="spec" checked={by === "url"} onChange={() => choose("url")} /> by URL
        </label>
        <label>
          <input type="radio" name="spec" checked={by === "inline"} onChange={() => choose("inline")} /> pasted
        </label>
        <p class="hint">
          An OpenAPI 3.0 or 3.1 document (or Swagger 2.0), JSON or YAML: each operation becomes a tool.
        </p>
      </fieldset>
      {by === "url" ? (
        <>
          <label for="spec-url">Spec URL</label>
          <input
            id="spec-url"
            type="url"
            required
            value={values.url}
            onInput={(e) => set("url", e.currentTarget.value)}
          />
        </>
      ) : (
        <>
          <label for="spec-inline">Spec (JSON or YAML)</label>
          <textarea
            id="spec-inline"
            rows={8}
            required
            value={values.inline}
            onInput={(e) => set("inline", e.currentTarget.value)}
          />
        </>
      )}
      <label for="base-url">Base URL (optional: where calls go instead of the spec's servers)</label>
      <input id="base-url" type="url" value={values.baseUrl} onInput={(e) => set("baseUrl", e.currentTarget.value)} />
      <label for="spec-auth">
        Credentials (optional JSON: security scheme name to token, key or username and password)
      </label>
      <textarea id="spec-auth" rows={2} value={values.auth} onInput={(e) => set("auth", e.currentTarget.value)} />
    </>
  )
}

const openApiFields = (
  by: "url" | "inline",
  values: { url: string; inline: string; baseUrl: string; auth: string },
): Fields => {
  let auth: unknown
  if (values.auth.trim() !== "") {
    try {
      auth = JSON.parse(values.auth)
    } catch (cause) {
      return { ok: false, message: `the credentials are not JSON: ${String(cause)}` }
    }
  }
  return {
    ok: true,
    fields: {
      spec: by === "url" ? { url: values.url } : { inline: values.inline },
      ...(values.baseUrl.trim() ? { baseUrl: values.baseUrl.trim() } : {}),
      ...(auth === undefined ? {} : { auth }),
    },
  }
}

export const AddSource = ({ added }: { added: () => void }) => {
  const [kind, setKind] = useState<Kind>("stdio")
  const [namespace, setNamespace] = useState("")
  const [command, setCommand] = useState("")
  const [args, setArgs] = useState("")
  const [url, setUrl] = useState("")
  const [openApi, setOpenApi] = useState<Fields>(openApiFields("url", { url: "", inline: "", baseUrl: "", auth: "" }))
  const [message, setMessage] = useState("")
  const [busy, setBusy] = useState(false)
  const submit = async (e: Event) => {
    e.preventDefault()
    const fields: Fields =
      kind === "openapi"
        ? openApi
        : {
            ok: true,
            fields: { transport: kind === "stdio" ? { type: kind, command, args: lines(args) } : { type: kind, url } },
          }
    if (!fields.ok) return setMessage(fields.message)
    setBusy(true)
    setMessage("")
    const json = { namespace, kind: kind === "openapi" ? "openapi" : "mcp", ...fields.fields }
    // the body's fields are the kind's (its plugin's schema): the server checks them
    const response = await api.v1.sources.$post({ json })
    setBusy(false)
    if (!response.ok) return setMessage(await errorText(response))
    setNamespace("")
    added()
  }
  const kinds: [Kind, string][] = [
    ["stdio", "stdio"],
    ["http", "http"],
    ["openapi", "OpenAPI"],
  ]
  return (
    <form class="card" aria-label="Add a source" onSubmit={submit}>
      <h2>Add a source</h2>
      <label for="source-namespace">Namespace</label>
      <input id="source-namespace" required value={namespace} onInput={(e) => setNamespace(e.currentTarget.value)} />
      <fieldset>
        <legend>Kind</legend>
        {kinds.map(([value, label]) => (
          <label>
            <input type="radio" name="kind" checked={kind === value} onChange={() => setKind(value)} /> {label}
          </label>
        ))}
        <p class="hint">
          An MCP server over stdio or http, or a REST API described by OpenAPI. A stdio source runs a command on the
          server's host: the server refuses it unless it was started to allow it.
        </p>
      </fieldset>
      {kind === "stdio" && (
        <>
          <label for="source-command">Command</label>
          <input id="source-command" required value={command} onInput={(e) => setCommand(e.currentTarget.value)} />
          <label for="source-args">Arguments, one a line</label>
          <textarea id="source-args" rows={3} value={args} onInput={(e) => setArgs(e.currentTarget.value)} />
        </>
      )}
      {kind === "http" && (
        <>
          <label for="source-url">URL</label>
          <input id="source-url" type="url" required value={url} onInput={(e) => setUrl(e.currentTarget.value)} />
        </>
      )}
      {kind === "openapi" && <OpenApiFields onChange={setOpenApi} />}
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
