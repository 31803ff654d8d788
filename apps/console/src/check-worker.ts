/**
 * The playground's type checker, in a Web Worker: TypeScript's own compiler (a language service over three files
 * in memory: ECMAScript's declarations to ES2023, what the sandbox adds, the catalog's declarations from describe,
 * and the script), so what it underlines is what `tsc` would say of the script. Loaded only by the playground, on
 * its first check, as its own file (./script-check.ts); the page's CSP allows it as a worker from its own origin.
 * It answers each request with the script's diagnostics, positions in the script as written.
 */
import ts from "typescript"
import type { CheckReply, CheckRequest } from "./script-check-protocol.js"

/** ECMAScript to ES2023, what QuickJS runs: no DOM, no Node (the sandbox has neither) */
const libFiles = import.meta.glob(
  [
    "../node_modules/typescript/lib/lib.es5.d.ts",
    "../node_modules/typescript/lib/lib.es20{15,16,17,18,19,20,21,22,23}*.d.ts",
    "../node_modules/typescript/lib/lib.decorators*.d.ts",
    "!../node_modules/typescript/lib/*.full.d.ts",
  ],
  { query: "?raw", import: "default", eager: true },
) as Record<string, string>

const files = new Map<string, { text: string; version: number }>()
for (const [path, text] of Object.entries(libFiles))
  files.set(path.slice(path.lastIndexOf("/") + 1), { text, version: 0 })

const SCRIPT = "script.ts"
const CATALOG = "catalog.d.ts"
/**
 * The script runs as the body of an async function (top-level `await` and `return`); a module, so its names do
 * not meet the declarations'.
 */
const BEFORE = "export {}\nasync function script() {\n"
const AFTER = "\n}\n"

const options: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  lib: ["lib.es2023.d.ts"],
  module: ts.ModuleKind.ESNext,
  // what describe's declarations are written for (`r.data` once `r.ok`); with noImplicitAny, `const lines = []`
  // takes the type of what is pushed (without it, `never[]`)
  strict: true,
  noEmit: true,
  types: [],
}

const set = (name: string, text: string) => {
  const file = files.get(name)
  if (file?.text !== text) files.set(name, { text, version: (file?.version ?? 0) + 1 })
}

const service = ts.createLanguageService({
  getScriptFileNames: () => [CATALOG, SCRIPT],
  getScriptVersion: (name) => String(files.get(name)?.version ?? 0),
  getScriptSnapshot: (name) => {
    const file = files.get(name)
    return file ? ts.ScriptSnapshot.fromString(file.text) : undefined
  },
  getCurrentDirectory: () => "/",
  getCompilationSettings: () => options,
  getDefaultLibFileName: () => "lib.es2023.d.ts",
  fileExists: (name) => files.has(name),
  readFile: (name) => files.get(name)?.text,
})

const check = ({ declarations, code }: Omit<CheckRequest, "id">): CheckReply["diagnostics"] => {
  set(CATALOG, declarations)
  set(SCRIPT, `${BEFORE}${code}${AFTER}`)
  const found = [...service.getSyntacticDiagnostics(SCRIPT), ...service.getSemanticDiagnostics(SCRIPT)]
  return found.map((d) => {
    const from = Math.min(Math.max((d.start ?? BEFORE.length) - BEFORE.length, 0), code.length)
    return {
      from,
      to: Math.min(from + (d.length ?? 0), code.length),
      message: ts.flattenDiagnosticMessageText(d.messageText, "\n"),
      severity: d.category === ts.DiagnosticCategory.Error ? "error" : "warning",
    }
  })
}

self.onmessage = (event: MessageEvent<CheckRequest>) => {
  const { id, ...request } = event.data
  self.postMessage({ id, diagnostics: check(request) } satisfies CheckReply)
}
