/** What the playground and its type checker (./check-worker.ts) say to each other. */

export interface CheckRequest {
  id: number
  /** the declarations the script is checked against (./script-declarations.ts) */
  declarations: string
  code: string
}

/** a problem in the script, in CodeMirror's terms: offsets into the script as written */
export interface ScriptDiagnostic {
  from: number
  to: number
  message: string
  severity: "error" | "warning"
}

export interface CheckReply {
  id: number
  diagnostics: ScriptDiagnostic[]
}
