/**
 * Closest names to a miss, for a message that says what was probably meant: a `tool_not_found` (a script's
 * path), a config file's unknown field. The name comes from outside, so the work is bounded: long names get no
 * suggestions, candidates whose length alone rules them out are skipped, and a row stops as soon as it cannot come
 * under the threshold.
 */
const MAX_NAME_CHARS = 200

/** Edit distance, or `limit + 1` as soon as it must exceed `limit`. */
const distanceWithin = (a: string, b: string, limit: number): number => {
  if (Math.abs(a.length - b.length) > limit) return limit + 1
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const current = [i]
    let rowMin = i
    for (let j = 1; j <= b.length; j++) {
      const value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1))
      current.push(value)
      if (value < rowMin) rowMin = value
    }
    if (rowMin > limit) return limit + 1
    previous = current
  }
  return previous[b.length]!
}

const normalize = (name: string) => name.toLowerCase().replace(/[-_\s]/g, "")

/** Paths in the same namespace are compared by their tool names: the shared prefix says nothing. */
const withoutSharedNamespace = (a: string, b: string): [string, string] => {
  const dot = a.indexOf(".")
  return dot > 0 && b.startsWith(a.slice(0, dot + 1)) ? [a.slice(dot + 1), b.slice(dot + 1)] : [a, b]
}

export const closestNames = (target: string, candidates: readonly string[], max = 3): string[] => {
  if (target.length > MAX_NAME_CHARS) return []
  const scored: { name: string; score: number }[] = []
  for (const name of candidates) {
    if (name.length > MAX_NAME_CHARS) continue
    const [targetPart, namePart] = withoutSharedNamespace(target, name)
    const wanted = normalize(targetPart)
    const n = normalize(namePart)
    if (wanted === "" || n === "") continue
    const limit = Math.max(2, Math.floor(namePart.length / 3))
    const score = n === wanted ? 0 : n.includes(wanted) || wanted.includes(n) ? 1 : distanceWithin(wanted, n, limit)
    if (score <= limit) scored.push({ name, score })
  }
  return scored
    .sort((a, b) => a.score - b.score || a.name.localeCompare(b.name))
    .slice(0, max)
    .map(({ name }) => name)
}
