/** The shell: sign-in, then the navigation and the page the fragment names. Admin pages are hidden from other keys. */
import { useEffect, useState } from "preact/hooks"
import { forgetKey, signIn, storeKey } from "./api.js"
import type { Access, SignIn } from "./api.js"
import { useRoute } from "./route.js"
import { SourcesPage } from "./pages/sources.js"
import { ApprovalPage, ApprovalsPage } from "./pages/approvals.js"
import { KeysPage } from "./pages/keys.js"
import { ActivityPage, ExecutionPage } from "./pages/activity.js"
import { PlaygroundPage } from "./pages/playground.js"
import { PoliciesPage } from "./pages/policies.js"
import { ToolPage, ToolsPage } from "./pages/tools.js"

const PAGES = [
  { id: "sources", label: "Sources", needs: null },
  { id: "tools", label: "Tools", needs: null },
  { id: "playground", label: "Playground", needs: "execute" },
  { id: "activity", label: "Activity", needs: null },
  { id: "approvals", label: "Approvals", needs: "admin" },
  { id: "policies", label: "Policies", needs: "admin" },
  { id: "keys", label: "Keys", needs: "admin" },
] as const

const allowed = (access: Access, needs: "admin" | "execute" | null) => needs === null || access[needs]

const SignInForm = ({ message, done }: { message: string; done: () => void }) => {
  const [key, setKey] = useState("")
  return (
    <main class="signin">
      <h1>Switchboard</h1>
      <form
        onSubmit={(e) => {
          e.preventDefault()
          storeKey(key.trim())
          done()
        }}
      >
        <label for="api-key">API key</label>
        <input
          id="api-key"
          type="password"
          autocomplete="off"
          value={key}
          onInput={(e) => setKey(e.currentTarget.value)}
        />
        <button type="submit">Sign in</button>
        <p class="hint">The key stays in this tab's session storage and is sent only as a header.</p>
        {message && (
          <p role="alert" class="error">
            {message}
          </p>
        )}
      </form>
    </main>
  )
}

const scopeText = (access: Access) =>
  !access.keyed
    ? "no key needed (loopback): admin"
    : access.admin
      ? "admin: everything"
      : access.execute
        ? "execute: read the catalog and run scripts"
        : "read: the catalog and this key's executions"

const Page = ({ route, access }: { route: string[]; access: Access }) => {
  const [page, id] = route
  if (page === "approvals" && access.admin) return id ? <ApprovalPage id={id} /> : <ApprovalsPage />
  if (page === "keys" && access.admin) return <KeysPage keyed={access.keyed} />
  if (page === "policies" && access.admin) return <PoliciesPage />
  if (page === "tools") return id ? <ToolPage path={id} canRun={access.execute} /> : <ToolsPage />
  if (page === "playground" && access.execute) return <PlaygroundPage />
  if (page === "activity") return id ? <ExecutionPage id={id} /> : <ActivityPage admin={access.admin && access.keyed} />
  return <SourcesPage access={access} />
}

export const App = () => {
  const [state, setState] = useState<SignIn | null>(null)
  const route = useRoute()
  const check = () =>
    void signIn().then(setState, (cause: unknown) => setState({ ok: false, needsKey: false, message: String(cause) }))
  useEffect(check, [])
  if (state === null) return <p class="loading">Loading…</p>
  if (!state.ok) {
    if (state.needsKey) return <SignInForm message={state.message} done={check} />
    return (
      <p role="alert" class="error">
        {state.message}
      </p>
    )
  }
  const { access } = state
  const current = route[0] || "sources"
  return (
    <div class="shell">
      <header>
        <a class="brand" href="#/sources">
          Switchboard
        </a>
        <nav aria-label="Pages">
          {PAGES.filter((p) => allowed(access, p.needs)).map((p) => (
            <a href={`#/${p.id}`} aria-current={current === p.id ? "page" : undefined}>
              {p.label}
            </a>
          ))}
        </nav>
        <span class="scope" data-testid="scope">
          {scopeText(access)}
        </span>
        {access.keyed && (
          <button
            type="button"
            class="link"
            onClick={() => {
              forgetKey()
              check()
            }}
          >
            Sign out
          </button>
        )}
      </header>
      <Page route={route} access={access} />
    </div>
  )
}
