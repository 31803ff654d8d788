/** Closest names to a miss, for a `tool_not_found` message that says what the script probably meant. */
const distance = (a: string, b: string): number => {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    let diagonal = row[0]!
    row[0] = i
    for (let j = 1; j <= b.length; j++) {
      const above = row[j]!
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1))
      diagonal = above
    }
  }
  return row[b.length]!
}

const normalize = (name: string) => name.toLowerCase().replace(/[-_\s]/g, "")

export const closestNames = (target: string, candidates: readonly string[], max = 3): string[] => {
  const wanted = normalize(target)
  return candidates
    .map((name) => {
      const n = normalize(name)
      const score = n === wanted ? 0 : n.includes(wanted) || wanted.includes(n) ? 1 : distance(wanted, n)
      return { name, score }
    })
    .filter(({ name, score }) => score <= Math.max(2, Math.floor(name.length / 3)))
    .sort((a, b) => a.score - b.score || a.name.localeCompare(b.name))
    .slice(0, max)
    .map(({ name }) => name)
}
