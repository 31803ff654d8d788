/**
 * JSON with lines to page and grep by, never more than `maxGrowth` times the size of compact JSON (issue
 * 14 §2). `JSON.stringify(value, null, 1)` indents every level: a value nested 1,300 deep around 400,000
 * zeros became 523 MB of spaces from 1.6 MB of JSON. Here only the outer `maxIndentDepth` levels of
 * containers are laid out one member a line; anything deeper, and any array holding no container, is
 * compact JSON on its line. Ordinary results grow by a third or so; a shape built to grow (chains of
 * one-member containers, say) would still reach about `maxIndentDepth + 2` times, so past `maxGrowth` the
 * layout stops and the compact JSON is the text: its long lines are paged by character instead.
 */
export interface PrettyJsonOptions {
  /** container levels laid out one member a line (default 4) */
  maxIndentDepth?: number
  /** the longest the laid-out text may be, as a multiple of the compact JSON's length (default 3) */
  maxGrowth?: number
  /** and in characters, whatever the growth allows; past either, the text is the compact JSON */
  maxChars?: number
  /** the compact JSON, when the caller has it already */
  compact?: string
}

/** The value's JSON text, laid out where that stays within bounds; undefined where JSON.stringify gives none. */
export const prettyJson = (value: unknown, options: PrettyJsonOptions = {}): string | undefined => {
  const compact = options.compact ?? JSON.stringify(value)
  if (compact === undefined || !isContainer(value)) return compact
  const budget = Math.min((options.maxGrowth ?? 3) * compact.length, options.maxChars ?? Number.POSITIVE_INFINITY)
  const writer = new Writer(options.maxIndentDepth ?? 4, budget)
  try {
    writer.write(value, 0, "")
  } catch (stop) {
    if (stop === OVER_BUDGET) return compact
    throw stop
  }
  return writer.parts.join("")
}

const OVER_BUDGET = Symbol("over budget")

const isContainer = (value: unknown): value is object => typeof value === "object" && value !== null

/** The value as JSON.stringify sees it: `toJSON` applied first. */
const resolve = (value: unknown, key: string): unknown =>
  isContainer(value) && typeof (value as { toJSON?: unknown }).toJSON === "function"
    ? (value as { toJSON(key: string): unknown }).toJSON(key)
    : value

class Writer {
  readonly parts: string[] = []
  private length = 0
  constructor(
    private readonly maxDepth: number,
    private readonly budget: number,
  ) {}

  private push(text: string) {
    this.length += text.length
    if (this.length > this.budget) throw OVER_BUDGET
    this.parts.push(text)
  }

  /** Appends the value's text; false when it has none (undefined, a function, a symbol), which JSON skips. */
  write(raw: unknown, depth: number, key: string): boolean {
    const value = resolve(raw, key)
    const laidOut =
      depth < this.maxDepth && isContainer(value) && (Array.isArray(value) ? value.some(isContainer) : true)
    if (!laidOut) {
      const text = JSON.stringify(value)
      if (text === undefined) return false
      this.push(text)
      return true
    }
    const inner = "\n" + " ".repeat(depth + 1)
    const close = "\n" + " ".repeat(depth)
    if (Array.isArray(value)) {
      if (value.length === 0) return (this.push("[]"), true)
      this.push("[")
      for (let index = 0; index < value.length; index++) {
        this.push(index === 0 ? inner : "," + inner)
        if (!this.write(value[index], depth + 1, String(index))) this.push("null")
      }
      this.push(close + "]")
      return true
    }
    let members = 0
    for (const name of Object.keys(value)) {
      const member = resolve((value as Record<string, unknown>)[name], name)
      if (member === undefined || typeof member === "function" || typeof member === "symbol") continue
      this.push(members === 0 ? "{" + inner : "," + inner)
      this.push(JSON.stringify(name) + ": ")
      this.write(member, depth + 1, name)
      members++
    }
    this.push(members === 0 ? "{}" : close + "}")
    return true
  }
}
