/**
 * The client a connection counts against when connections are bounded per client (./connection-guard.ts): its IPv4
 * address, or the /64 of its IPv6 address, since one IPv6 host is usually given a whole /64 and could otherwise
 * open each connection from an address of its own. An IPv4 address a dual-stack listener sees as `::ffff:a.b.c.d`
 * is that IPv4 address.
 */

/** the eight groups of an IPv6 address, `::` filled in and a trailing dotted quad turned into two groups */
const ipv6Groups = (address: string): string[] | undefined => {
  const [head = "", tail, ...more] = address.split("::")
  if (more.length > 0) return undefined
  const groupsOf = (part: string) => {
    if (part === "") return []
    const groups = part.split(":")
    const last = groups[groups.length - 1]!
    if (last.includes(".")) {
      const bytes = last.split(".").map(Number)
      groups.splice(-1, 1, ((bytes[0]! << 8) | bytes[1]!).toString(16), ((bytes[2]! << 8) | bytes[3]!).toString(16))
    }
    return groups
  }
  const before = groupsOf(head)
  const after = tail === undefined ? [] : groupsOf(tail)
  const zeros = tail === undefined ? 0 : 8 - before.length - after.length
  const groups = [...before, ...Array.from({ length: zeros }, () => "0"), ...after]
  return groups.length === 8 ? groups.map((group) => Number.parseInt(group, 16).toString(16)) : undefined
}

export const clientOf = (remoteAddress: string | undefined): string => {
  if (remoteAddress === undefined) return "unknown"
  const address = remoteAddress.replace(/%.*$/, "")
  if (!address.includes(":")) return address
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)
  if (mapped) return mapped[1]!
  const groups = ipv6Groups(address)
  return groups ? `${groups.slice(0, 4).join(":")}::/64` : address
}
