/**
 * The playground: an editor that knows the catalog's tools as TypeScript, from `POST /v1/describe`: completion after
 * `tools.` and `tools.<namespace>.`, each with its declaration, and the script type-checked against them (a
 * misspelt tool or a wrong argument underlined, and listed under the editor); run, and what the run came to.
 */
import type { Completion, CompletionContext } from "@codemirror/autocomplete"
import { useMemo, useRef, useState } from "preact/hooks"
import { api, errorText } from "../api.js"
import { CodeEditor } from "../lazy-code.js"
import type { EditorHandle } from "../code-view.js"
import { RunOutcome, runScript } from "./run-outcome.js"
import type { Run } from "./run-outcome.js"
import { checkScript } from "../script-check.js"
import type { ScriptDiagnostic } from "../script-check-protocol.js"
import { scriptDeclarations } from "../script-declarations.js"
import { useLoad } from "./use-load.js"

interface Catalog {
  tools: { path: string; namespace: string; name: string; description: string | null }[]
  /** each tool's declaration, from describe */
  declarations: string
  /** what the script is checked against: the declarations and the sandbox's globals */
  checked: string
}

/** describe takes at most this many paths at once */
const DESCRIBE_BATCH = 100

const loadCatalog = async () => {
  const listed = await api.v1.tools.$get({ query: { limit: "1000" } })
  if (!listed.ok) return { ok: false as const, message: await errorText(listed) }
  const { tools } = await listed.json()
  const blocks: string[] = []
  for (let i = 0; i < tools.length; i += DESCRIBE_BATCH) {
    const paths = tools.slice(i, i + DESCRIBE_BATCH).map((t) => t.path)
    const described = await api.v1.describe.$post({ json: { paths } })
    if (described.ok) blocks.push((await described.json()).typescript)
  }
  const value = { tools, declarations: blocks.join("\n"), checked: scriptDeclarations(blocks) }
  return { ok: true as const, value: value satisfies Catalog }
}

/** the declaration of `name` inside describe's block, for a completion's detail */
const declarationOf = (declarations: string, name: string) =>
  declarations
    .split("\n")
    .find((line) => new RegExp(`\\b${name}\\s*[(:]`).test(line))
    ?.trim()

const completeFrom = (catalog: Catalog) => (context: CompletionContext) => {
  const member = context.matchBefore(/tools\.(\w*)(\.(\w*))?$/)
  if (!member) return null
  const [, ns, dotted, partial] = /tools\.(\w*)(\.(\w*))?$/.exec(member.text)!
  if (dotted === undefined) {
    const namespaces = [...new Set(catalog.tools.map((t) => t.namespace))]
    return {
      from: member.from + "tools.".length,
      options: namespaces.map((n): Completion => ({ label: n, type: "namespace" })),
    }
  }
  const options = catalog.tools
    .filter((t) => t.namespace === ns)
    .map(
      (t): Completion => ({
        label: t.name,
        type: "function",
        detail: declarationOf(catalog.declarations, t.name),
        info: t.description ?? undefined,
      }),
    )
  return { from: member.to - (partial ?? "").length, options }
}

const STARTER = `// tools.<namespace>.<tool>(args) answers { ok, data } or { ok: false, error }
const r = await tools.
return r
`

/** a problem as the list under the editor shows it: its line, and what the checker says */
const problemText = (code: string, problem: ScriptDiagnostic) =>
  `line ${code.slice(0, problem.from).split("\n").length}: ${problem.message}`

export const PlaygroundPage = () => {
  const [catalog] = useLoad(loadCatalog, [])
  const handle = useRef<EditorHandle | null>(null)
  const [run, setRun] = useState<Run | null>(null)
  /** what the last check found; null before the first */
  const [problems, setProblems] = useState<string[] | null>(null)
  const complete = useMemo(() => (catalog.state === "ok" ? completeFrom(catalog.value) : () => null), [catalog.state])
  const check = useMemo(
    () =>
      catalog.state === "ok"
        ? async (code: string) => {
            const found = await checkScript(catalog.value.checked, code)
            setProblems(found.map((problem) => problemText(code, problem)))
            return found
          }
        : undefined,
    [catalog.state],
  )
  return (
    <main>
      <h1>Playground</h1>
      {catalog.state === "error" && <p class="error">{catalog.message}</p>}
      {catalog.state === "ok" && (
        <>
          <CodeEditor initial={STARTER} label="Script" complete={complete} check={check} handle={handle} />
          <section aria-label="Type check" aria-live="polite">
            <p class="hint" data-testid="problem-count">
              {problems === null
                ? "TypeScript checks the script as you write"
                : problems.length === 0
                  ? "TypeScript finds no problem"
                  : `TypeScript finds ${problems.length}`}
            </p>
            {problems && problems.length > 0 && (
              <ul class="problems" data-testid="problems">
                {problems.map((problem) => (
                  <li>{problem}</li>
                ))}
              </ul>
            )}
          </section>
          <button
            type="button"
            onClick={async () => {
              setRun({ state: "running" })
              setRun(await runScript(handle.current?.text() ?? ""))
            }}
          >
            Run
          </button>
          <details>
            <summary>Declarations ({catalog.value.tools.length} tools)</summary>
            <pre class="code">{catalog.value.declarations}</pre>
          </details>
        </>
      )}
      {run && <RunOutcome run={run} />}
    </main>
  )
}
