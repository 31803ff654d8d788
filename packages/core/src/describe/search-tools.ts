/**
 * Ranks tools for a free-text query over name, path, description and argument names. Identifiers are split
 * into words (camelCase, snake_case, kebab-case, dots), so "get user" finds `getUser` and `get_user`.
 * Ranking runs in memory over the catalog rows: catalogs are thousands of tools, not millions.
 */
import type { ToolRow } from "../catalog/rows.js"

/** "getUserByID_v2" -> ["get", "user", "by", "id", "v2"] */
export const words = (text: string): string[] =>
  text
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 0)

const argumentNames = (schema: unknown): string[] => {
  const properties = (schema as { properties?: unknown } | null)?.properties
  return properties && typeof properties === "object" ? Object.keys(properties) : []
}

const FIELD_WEIGHTS = { name: 8, path: 4, args: 3, description: 1 } as const

const scoreField = (queryWords: string[], fieldWords: string[], weight: number): number => {
  let score = 0
  for (const q of queryWords) {
    if (fieldWords.includes(q)) score += weight
    else if (q.length >= 3 && fieldWords.some((w) => w.startsWith(q))) score += weight * 0.6
    else if (q.length >= 4 && fieldWords.some((w) => w.includes(q))) score += weight * 0.3
  }
  return score
}

export const scoreTool = (query: string, tool: ToolRow): number => {
  const queryWords = words(query)
  if (queryWords.length === 0) return 0
  const nameWords = words(tool.name)
  let score =
    scoreField(queryWords, nameWords, FIELD_WEIGHTS.name) +
    scoreField(queryWords, words(tool.namespace), FIELD_WEIGHTS.path) +
    scoreField(queryWords, argumentNames(tool.inputSchema).flatMap(words), FIELD_WEIGHTS.args) +
    scoreField(queryWords, words(tool.description ?? ""), FIELD_WEIGHTS.description)
  // every query word in the name, in order: the tool is most likely the one meant
  if (nameWords.join(" ").includes(queryWords.join(" "))) score += FIELD_WEIGHTS.name
  return score
}

export const rankTools = (query: string, tools: readonly ToolRow[], limit?: number): ToolRow[] =>
  tools
    .map((tool) => ({ tool, score: scoreTool(query, tool) }))
    .filter(({ score }) => score > 0)
    .sort((a, b) => b.score - a.score || a.tool.path.localeCompare(b.tool.path))
    .slice(0, limit ?? Number.POSITIVE_INFINITY)
    .map(({ tool }) => tool)
