/**
 * Ranks tools for a free-text query over name, path, description and argument names. Identifiers are split
 * into words (camelCase, snake_case, kebab-case, dots), so "get user" finds `getUser` and `get_user`.
 * Ranking runs in memory over the catalog rows: catalogs are thousands of tools, not millions.
 */
import type { ToolRow } from "../catalog/rows.js"

/** Text longer than this is searched in its first part only: queries and descriptions come from outside. */
const MAX_TEXT_CHARS = 2_000

const kind = (c: string) => (c >= "a" && c <= "z" ? 1 : c >= "A" && c <= "Z" ? 2 : c >= "0" && c <= "9" ? 3 : 0)

/** "getUserByID_v2" -> ["get", "user", "by", "id", "v2"], in one pass over the characters. */
export const words = (input: string): string[] => {
  const text = input.length > MAX_TEXT_CHARS ? input.slice(0, MAX_TEXT_CHARS) : input
  const out: string[] = []
  let word = ""
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!
    const k = kind(c)
    if (k === 0) {
      if (word) out.push(word)
      word = ""
      continue
    }
    const previous = i > 0 ? kind(text[i - 1]!) : 0
    const next = i + 1 < text.length ? kind(text[i + 1]!) : 0
    // a new word starts at an upper-case letter after a lower-case one or a digit ("getUser"), or at the
    // last capital of a run followed by lower case ("IDNumber" -> "id", "number")
    if (word && k === 2 && (previous === 1 || previous === 3 || (previous === 2 && next === 1))) {
      out.push(word)
      word = ""
    }
    word += c.toLowerCase()
  }
  if (word) out.push(word)
  return out
}

const argumentNames = (schema: unknown): string[] => {
  const properties = (schema as { properties?: unknown } | null)?.properties
  return properties && typeof properties === "object" ? Object.keys(properties) : []
}

const FIELD_WEIGHTS = { name: 8, path: 4, args: 3, description: 1 } as const

/** the word as written, or its plural or singular by a trailing "s" ("issue" finds `issues/create`) */
const hasWord = (fieldWords: string[], q: string) =>
  fieldWords.includes(q) ||
  fieldWords.includes(`${q}s`) ||
  (q.length > 3 && q.endsWith("s") && fieldWords.includes(q.slice(0, -1)))

const scoreField = (queryWords: string[], fieldWords: string[], weight: number): number => {
  let score = 0
  for (const q of queryWords) {
    if (hasWord(fieldWords, q)) score += weight
    else if (q.length >= 3 && fieldWords.some((w) => w.startsWith(q))) score += weight * 0.6
    else if (q.length >= 4 && fieldWords.some((w) => w.includes(q))) score += weight * 0.3
  }
  return score
}

export const scoreTool = (query: string | string[], tool: ToolRow): number => {
  const queryWords = typeof query === "string" ? words(query) : query
  if (queryWords.length === 0) return 0
  const nameWords = words(tool.name)
  let score =
    scoreField(queryWords, nameWords, FIELD_WEIGHTS.name) +
    scoreField(queryWords, words(tool.namespace), FIELD_WEIGHTS.path) +
    scoreField(queryWords, argumentNames(tool.inputSchema).flatMap(words), FIELD_WEIGHTS.args) +
    scoreField(queryWords, words(tool.description ?? ""), FIELD_WEIGHTS.description)
  // every query word in the name, in order: the tool is most likely the one meant
  if (nameWords.join(" ").includes(queryWords.join(" "))) score += FIELD_WEIGHTS.name
  // and the more of the name the query covers, the closer it is (`issues/create` before `issues/create-comment`)
  if (score > 0 && nameWords.length > 0)
    score += (FIELD_WEIGHTS.name / 2) * (nameWords.filter((w) => hasWord(queryWords, w)).length / nameWords.length)
  return score
}

export const rankTools = (query: string, tools: readonly ToolRow[], limit?: number): ToolRow[] => {
  const queryWords = words(query)
  return tools
    .map((tool) => ({ tool, score: scoreTool(queryWords, tool) }))
    .filter(({ score }) => score > 0)
    .sort((a, b) => b.score - a.score || a.tool.path.localeCompare(b.tool.path))
    .slice(0, limit ?? Number.POSITIVE_INFINITY)
    .map(({ tool }) => tool)
}
