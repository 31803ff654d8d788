/**
 * The editor's code (CodeMirror) loads on the first page that shows code, as its own file: the sources, approvals
 * and keys pages never fetch it.
 */
import type { ComponentProps } from "preact"
import { useEffect, useState } from "preact/hooks"

type CodeModule = typeof import("./code-view.js")
let loading: Promise<CodeModule> | undefined

const useCodeModule = () => {
  const [module, setModule] = useState<CodeModule | null>(null)
  useEffect(() => {
    loading ??= import("./code-view.js")
    void loading.then(setModule)
  }, [])
  return module
}

export const CodeView = (props: ComponentProps<CodeModule["CodeView"]>) => {
  const module = useCodeModule()
  return module ? <module.CodeView {...props} /> : <pre class="code">{props.code}</pre>
}

export const CodeEditor = (props: ComponentProps<CodeModule["CodeEditor"]>) => {
  const module = useCodeModule()
  return module ? <module.CodeEditor {...props} /> : <p>Loading the editor…</p>
}
