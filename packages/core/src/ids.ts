/**
 * Ids for rows written on every execute (executions, tool_calls). They are UUID v7 (RFC 9562): a millisecond
 * timestamp first, so a new primary key lands at the end of the B-tree instead of on a random page, which makes
 * each insert cheaper. Within one millisecond
 * a 12-bit counter in `rand_a` keeps them in order (RFC 9562 §6.2, method 1); a clock that steps back keeps
 * the last millisecond and counts on.
 * The random part comes from crypto.randomUUID, on Node and Workers alike: Node serves it from a pool of
 * random bytes, where crypto.getRandomValues costs a system call each time.
 */
let lastMs = -1
let counter = 0

export const timeOrderedId = (): string => {
  const now = Date.now()
  if (now > lastMs) {
    lastMs = now
    counter = 0
  } else if (++counter > 0xfff) {
    lastMs++
    counter = 0
  }
  const time = lastMs.toString(16).padStart(12, "0")
  // randomUUID is xxxxxxxx-xxxx-4xxx-Vxxx-xxxxxxxxxxxx: its variant group and last group stay (62 random bits)
  return `${time.slice(0, 8)}-${time.slice(8)}-7${counter.toString(16).padStart(3, "0")}${crypto.randomUUID().slice(18)}`
}
