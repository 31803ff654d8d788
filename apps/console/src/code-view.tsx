/**
 * CodeMirror 6: a read-only, highlighted view of TypeScript, and the playground's editor, with completion and the
 * problems a checker finds underlined (@codemirror/lint). CodeMirror rather than Monaco: it is modular (this build
 * takes the view, the JavaScript/TypeScript grammar, completion and lint, about a tenth of Monaco's size), and runs
 * under a CSP without inline script or `eval`. The type checker is TypeScript's own, in a worker the playground
 * starts (../script-check.ts).
 */
import { autocompletion } from "@codemirror/autocomplete"
import type { CompletionSource } from "@codemirror/autocomplete"
import { defaultKeymap, history, historyKeymap } from "@codemirror/commands"
import { javascript } from "@codemirror/lang-javascript"
import { HighlightStyle, syntaxHighlighting } from "@codemirror/language"
import { tags } from "@lezer/highlight"
import { EditorState } from "@codemirror/state"
import { EditorView, keymap, lineNumbers } from "@codemirror/view"
import { linter, lintGutter, lintKeymap } from "@codemirror/lint"
import { useEffect, useRef } from "preact/hooks"
import type { ScriptDiagnostic } from "./script-check-protocol.js"

/** the nonce the server gave this page's style elements (its CSP allows no other inline style) */
const nonce = document.querySelector<HTMLMetaElement>('meta[name="csp-nonce"]')?.content ?? ""

/** colours with at least 4.5:1 contrast on white (the default style's are lighter) */
const highlight = HighlightStyle.define([
  { tag: tags.keyword, color: "#7a1fa2" },
  { tag: [tags.string, tags.regexp], color: "#146c2e" },
  { tag: [tags.number, tags.bool, tags.null], color: "#1750a5" },
  { tag: tags.comment, color: "#555555", fontStyle: "italic" },
  { tag: [tags.typeName, tags.className], color: "#8a3b00" },
  { tag: tags.definition(tags.variableName), color: "#0b57d0" },
  { tag: tags.invalid, color: "#b3261e" },
])

const base = [
  javascript({ typescript: true }),
  syntaxHighlighting(highlight),
  EditorView.lineWrapping,
  EditorView.cspNonce.of(nonce),
]

export const CodeView = ({ code, label }: { code: string; label: string }) => {
  const host = useRef<HTMLDivElement>(null)
  useEffect(() => {
    const view = new EditorView({
      parent: host.current!,
      state: EditorState.create({
        doc: code,
        extensions: [...base, EditorState.readOnly.of(true), EditorView.contentAttributes.of({ "aria-label": label })],
      }),
    })
    return () => view.destroy()
  }, [code, label])
  return <div class="code-view" ref={host} />
}

export interface EditorHandle {
  text: () => string
}

/** how long the text rests before it is checked again */
const CHECK_DELAY_MS = 400

export const CodeEditor = ({
  initial,
  label,
  complete,
  check,
  handle,
}: {
  initial: string
  label: string
  complete: CompletionSource
  /** the text's problems, underlined in it */
  check?: (code: string) => Promise<ScriptDiagnostic[]>
  handle: { current: EditorHandle | null }
}) => {
  const host = useRef<HTMLDivElement>(null)
  useEffect(() => {
    const view = new EditorView({
      parent: host.current!,
      state: EditorState.create({
        doc: initial,
        extensions: [
          ...base,
          lineNumbers(),
          history(),
          keymap.of([...defaultKeymap, ...historyKeymap, ...lintKeymap]),
          autocompletion({ override: [complete], activateOnTyping: true }),
          ...(check
            ? [linter((view) => check(view.state.doc.toString()), { delay: CHECK_DELAY_MS }), lintGutter()]
            : []),
          EditorView.contentAttributes.of({ "aria-label": label }),
        ],
      }),
    })
    handle.current = { text: () => view.state.doc.toString() }
    return () => view.destroy()
  }, [complete, check])
  return <div class="code-editor" ref={host} />
}
