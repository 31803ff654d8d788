/**
 * Whether a task's script compiles against what describe declared: the answer's TypeScript above the script as the
 * body of an async function, through the real compiler (strict, with unchecked index access), in memory. This is
 * the bench's check that a shortened declaration still types the data as the tool returns it and gives a model
 * enough to write the script.
 */
import ts from "typescript"

const options: ts.CompilerOptions = {
  strict: true,
  noUncheckedIndexedAccess: true,
  noEmit: true,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ESNext,
  lib: ["lib.es2023.d.ts"],
  types: [],
  skipLibCheck: true,
}

const FILE = "/script.ts"

/** The compiler's messages, each with its line in the checked text; none when the script type-checks. */
export const typeCheck = (declarations: string, script: string): string[] => {
  const text = `export {}\n${declarations}\n\nasync function script() {\n${script}\n}\n`
  const host = ts.createCompilerHost(options)
  const { getSourceFile, fileExists, readFile } = host
  host.getSourceFile = (name, language, ...rest) =>
    name === FILE ? ts.createSourceFile(name, text, language) : getSourceFile.call(host, name, language, ...rest)
  host.fileExists = (name) => name === FILE || fileExists.call(host, name)
  host.readFile = (name) => (name === FILE ? text : readFile.call(host, name))
  const program = ts.createProgram([FILE], options, host)
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const line = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line : -1
    const source = line >= 0 ? text.split("\n")[line]?.trim() : ""
    return `${ts.flattenDiagnosticMessageText(d.messageText, "\n")} (at: ${source})`
  })
}
