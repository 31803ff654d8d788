import { parse } from "acorn"

/** Text put into the script; `column` is 0-based in the stripped script, before any insertion. */
export interface Insertion {
  line: number
  column: number
  text: string
}

const parseOptions = {
  ecmaVersion: "latest",
  sourceType: "script",
  // the script is the body of an async function
  allowReturnOutsideFunction: true,
  allowAwaitOutsideFunction: true,
  // so that `({ a: 1 })` is wrapped whole, parentheses included
  preserveParens: true,
} as const

/**
 * The rule for a script that ends in a bare expression: when the last top-level statement is an
 * expression statement, its value is the result, as if the user had written `return (expr)`. The
 * statement becomes exactly that, on the same line, so line numbers never move. An earlier `return`
 * (in an `if`, say) still returns first. A script acorn cannot parse is left alone; QuickJS then reports
 * the syntax error with its position.
 */
export const completionInsertions = (stripped: string): Insertion[] => {
  let body: { type: string; expression?: { start: number; end: number } }[]
  try {
    body = parse(stripped, parseOptions).body as typeof body
  } catch {
    return []
  }
  const last = body[body.length - 1]
  if (last?.type !== "ExpressionStatement" || !last.expression) return []
  return [
    { ...positionOf(stripped, last.expression.start), text: "return (" },
    { ...positionOf(stripped, last.expression.end), text: ")" },
  ]
}

/** Applies insertions (in source order) to the stripped script. */
export const applyInsertions = (stripped: string, insertions: readonly Insertion[]): string => {
  if (insertions.length === 0) return stripped
  const lines = stripped.split("\n")
  // right to left, so earlier columns stay valid
  for (const { line, column, text } of [...insertions].reverse()) {
    const current = lines[line - 1] ?? ""
    lines[line - 1] = current.slice(0, column) + text + current.slice(column)
  }
  return lines.join("\n")
}

/** Maps a 1-based column reported on the modified line back to the stripped line. */
export const columnBeforeInsertions = (insertions: readonly Insertion[], line: number, column: number): number => {
  let shift = 0
  for (const insertion of insertions) {
    if (insertion.line !== line) continue
    const startInModified = insertion.column + shift
    if (column - 1 >= startInModified + insertion.text.length) shift += insertion.text.length
    else if (column - 1 >= startInModified) return insertion.column + 1
  }
  return column - shift
}

const positionOf = (text: string, offset: number): { line: number; column: number } => {
  let line = 1
  let lineStart = 0
  for (let index = text.indexOf("\n"); index !== -1 && index < offset; index = text.indexOf("\n", index + 1)) {
    line++
    lineStart = index + 1
  }
  return { line, column: offset - lineStart }
}
