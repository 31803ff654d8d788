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
export const completionInsertions = (stripped: string): Insertion[] =>
  // acorn would give no insertion either, and parsing is skipped on every run that ends in a return
  endsInReturnStatement(stripped) ? [] : parsedInsertions(stripped)

/** The rule above by acorn's parse alone. */
export const parsedInsertions = (stripped: string): Insertion[] => {
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

/** the keyword `return` at the start of a line, not the start of a longer name (`returned`, `return\u0041`) */
const returnAtLineStart = /^[ \t]*return(?![\w$\\\u0080-\uffff])/
/** what may follow on that line, outside string literals: no comment, regex, template, escape or non-ASCII */
const plainCode = /^[\w$ \t.,+\-*%<>=!&|^~?:()[\]{};'"]*$/

/**
 * Whether the script's last statement is, provably, a `return` statement, so no final expression follows
 * and acorn's parse can be skipped (when acorn cannot parse the script, it gives no insertion either).
 * True only when all of these hold, each checked on the text:
 * - the last non-blank line starts with the keyword `return`. The keyword can only start a statement,
 *   bar a property name: after `.` or `?.` (so the line before must not end in `.`), or a key in an object
 *   or class body, which would need a `}` on this line closing a brace opened before it (refused below);
 * - that line is plain code: no comment, regex, template literal, backslash or non-ASCII character (a
 *   line or paragraph separator would end the line), and its strings close on the line;
 * - its brackets never close one opened before the line and all close by its end, and no `;` sits outside
 *   braces: so the return statement is the line's only statement, and nothing opened earlier (a block, a
 *   comment, a string) is closed on it, which would let another statement follow;
 * - the line before (the last non-blank one) has no `/`, `<!`, `-->`, backtick or backslash (no comment
 *   hiding what it ends in, no string continued onto the last line) and does not end in `.`.
 */
export const endsInReturnStatement = (stripped: string): boolean => {
  const text = stripped.trimEnd()
  const lineStart = text.lastIndexOf("\n") + 1
  const line = text.slice(lineStart)
  if (!returnAtLineStart.test(line) || !plainCode.test(line) || line.includes("<!")) return false
  const before = text.slice(0, lineStart).trimEnd()
  const previousLine = before.slice(before.lastIndexOf("\n") + 1)
  if (before.endsWith(".") || /[/`\\]|<!|-->/.test(previousLine)) return false
  let braces = 0
  let brackets = 0
  for (let index = line.indexOf("return") + 6; index < line.length; index++) {
    const char = line[index]
    if (char === "'" || char === '"') {
      // the string must close on this line (the line has no backslash, so no escaped quote)
      index = line.indexOf(char, index + 1)
      if (index === -1) return false
    } else if (char === "{") braces++
    else if (char === "}") {
      if (--braces < 0) return false
    } else if (char === "(" || char === "[") brackets++
    else if (char === ")" || char === "]") {
      if (--brackets < 0) return false
    } else if (char === ";" && braces === 0) return false
  }
  return braces === 0 && brackets === 0
}
