/** Small pieces of TypeScript syntax shared by the shape renderer and describe. */

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/

export const isIdentifier = (name: string): boolean => IDENTIFIER.test(name)

/** A property name as it may appear in a type literal: bare when it is an identifier, else a string literal. */
export const propertyKey = (name: string): string => (isIdentifier(name) ? name : JSON.stringify(name))

/** How tightly a rendered type binds, so it is parenthesized only where it must be. */
export type Precedence = "atom" | "intersection" | "union"

export interface TypeText {
  text: string
  prec: Precedence
}

export const atom = (text: string): TypeText => ({ text, prec: "atom" })

/** `T[]` for a short atom, `Array<T>` for anything else (a union, an intersection, a multi-line literal). */
export const arrayOf = (element: TypeText): TypeText =>
  atom(element.prec === "atom" && !element.text.includes("\n") ? `${element.text}[]` : `Array<${element.text}>`)

export const unionText = (members: TypeText[]): TypeText => {
  const texts = [...new Set(members.map((m) => m.text))]
  if (texts.includes("unknown")) return atom("unknown")
  const kept = texts.filter((t) => t !== "never")
  if (kept.length === 0) return atom("never")
  if (kept.length === 1) return members.find((m) => m.text === kept[0]) as TypeText
  return { text: kept.join(" | "), prec: "union" }
}

export const intersectionText = (members: TypeText[]): TypeText => {
  const seen = new Set<string>()
  let kept = members.filter((m) => m.text !== "unknown" && !seen.has(m.text) && seen.add(m.text))
  // `Record<string, unknown>` adds nothing to another member a script can use.
  if (kept.length > 1) kept = kept.filter((m) => m.text !== "Record<string, unknown>")
  if (kept.some((m) => m.text === "never")) return atom("never")
  if (kept.length === 0) return atom("unknown")
  if (kept.length === 1) return kept[0] as TypeText
  return { text: kept.map((m) => (m.prec === "union" ? `(${m.text})` : m.text)).join(" & "), prec: "intersection" }
}

/** A `/** *\/` comment, one line when it fits on one; `*\/` inside the text is broken so it cannot end it. */
export const docComment = (text: string, pad: string): string => {
  const lines = text
    .replace(/\*\//g, "*\\/")
    .replace(/\r\n?/g, "\n")
    .split("\n")
    .map((line) => line.trimEnd())
  while (lines.length > 0 && lines[lines.length - 1] === "") lines.pop()
  while (lines.length > 0 && lines[0] === "") lines.shift()
  if (lines.length === 0) return ""
  if (lines.length === 1) return `${pad}/** ${lines[0]} */\n`
  return `${pad}/**\n${lines.map((line) => (line ? `${pad} * ${line}` : `${pad} *`)).join("\n")}\n${pad} */\n`
}

export const indentOf = (level: number): string => "  ".repeat(level)
