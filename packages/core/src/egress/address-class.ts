/**
 * What kind of address an IP is, for the egress rule (ARCHITECTURE.md: safety): a server that listens beyond loopback
 * refuses to fetch anything but global unicast. Pure (no Node APIs), so any host can use it; the Node host's
 * guarded fetch (`@switchboard/plugin-mcp/node`) applies it to every address a name resolves to.
 *
 * Ranges from the IANA special-purpose registries (RFC 6890 and successors). An address embedded in an IPv6
 * one (IPv4-mapped, IPv4-compatible, NAT64 64:ff9b::/96, 6to4) is judged by its IPv4 part.
 */

export type AddressClass =
  | "public"
  | "loopback"
  | "private"
  | "link-local"
  | "metadata"
  | "unspecified"
  | "shared"
  | "multicast"
  | "reserved"
  | "invalid"

/** Cloud metadata services at addresses outside the private ranges (169.254.169.254 is link-local already). */
const METADATA_V4 = new Set(["168.63.129.16"])

/** `a.b.c.d` in plain decimal only: DNS and URL parsing give this form; anything else is not an address here. */
export const parseIpv4 = (text: string): number[] | null => {
  const parts = text.split(".")
  if (parts.length !== 4) return null
  const bytes = parts.map((p) => (/^(0|[1-9]\d{0,2})$/.test(p) ? Number(p) : NaN))
  return bytes.every((b) => b >= 0 && b <= 255) ? bytes : null
}

/** Eight 16-bit groups, or null. Accepts `::` compression, a trailing dotted IPv4, brackets and a zone id. */
export const parseIpv6 = (input: string): number[] | null => {
  let text = input.startsWith("[") && input.endsWith("]") ? input.slice(1, -1) : input
  const zone = text.indexOf("%")
  if (zone >= 0) text = text.slice(0, zone)
  if (!text.includes(":")) return null
  const lastColon = text.lastIndexOf(":")
  if (text.slice(lastColon + 1).includes(".")) {
    // a trailing dotted IPv4 (::ffff:127.0.0.1) is two groups written another way
    const v4 = parseIpv4(text.slice(lastColon + 1))
    if (!v4) return null
    text = `${text.slice(0, lastColon + 1)}${((v4[0]! << 8) | v4[1]!).toString(16)}:${((v4[2]! << 8) | v4[3]!).toString(16)}`
  }
  const halves = text.split("::")
  if (halves.length > 2) return null
  const group = (g: string) => (/^[0-9a-f]{1,4}$/i.test(g) ? parseInt(g, 16) : NaN)
  const head = halves[0] ? halves[0].split(":").map(group) : []
  const rest = halves.length === 2 && halves[1] ? halves[1].split(":").map(group) : []
  const known = head.length + rest.length
  if ([...head, ...rest].some(Number.isNaN)) return null
  if (halves.length === 1) return known === 8 ? head : null
  if (known > 7) return null
  return [...head, ...Array<number>(8 - known).fill(0), ...rest]
}

const inV4 = (b: number[], prefix: number[], bits: number) => {
  const value = ((b[0]! << 24) | (b[1]! << 16) | (b[2]! << 8) | b[3]!) >>> 0
  const base = ((prefix[0]! << 24) | ((prefix[1] ?? 0) << 16) | ((prefix[2] ?? 0) << 8) | (prefix[3] ?? 0)) >>> 0
  const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0
  return (value & mask) >>> 0 === (base & mask) >>> 0
}

const V4_RANGES: [number[], number, AddressClass][] = [
  [[0], 8, "unspecified"],
  [[10], 8, "private"],
  [[100, 64], 10, "shared"],
  [[127], 8, "loopback"],
  [[169, 254, 169, 254], 32, "metadata"],
  [[169, 254], 16, "link-local"],
  [[172, 16], 12, "private"],
  [[192, 0, 0], 24, "reserved"],
  [[192, 0, 2], 24, "reserved"],
  [[192, 88, 99], 24, "reserved"],
  [[192, 168], 16, "private"],
  [[198, 18], 15, "reserved"],
  [[198, 51, 100], 24, "reserved"],
  [[203, 0, 113], 24, "reserved"],
  [[224], 4, "multicast"],
  [[240], 4, "reserved"],
]

const classifyV4 = (b: number[]): AddressClass => {
  if (METADATA_V4.has(b.join("."))) return "metadata"
  for (const [prefix, bits, kind] of V4_RANGES) if (inV4(b, prefix, bits)) return kind
  return "public"
}

const v4Of = (hi: number, lo: number) => [hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]

const classifyV6 = (g: number[]): AddressClass => {
  const zeros = (from: number, to: number) => g.slice(from, to).every((x) => x === 0)
  if (zeros(0, 8)) return "unspecified"
  if (zeros(0, 7) && g[7] === 1) return "loopback"
  // ::ffff:a.b.c.d (mapped), ::a.b.c.d (compatible, deprecated), 64:ff9b::a.b.c.d (NAT64): the IPv4 address decides
  if (zeros(0, 5) && g[5] === 0xffff) return classifyV4(v4Of(g[6]!, g[7]!))
  if (zeros(0, 6)) return classifyV4(v4Of(g[6]!, g[7]!))
  if (g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6)) return classifyV4(v4Of(g[6]!, g[7]!))
  if (g[0] === 0x2002) return classifyV4(v4Of(g[1]!, g[2]!)) // 6to4
  const first = g[0]!
  if ((first & 0xfe00) === 0xfc00) return "private" // fc00::/7 unique local (AWS metadata fd00:ec2::254 is here)
  if ((first & 0xffc0) === 0xfe80) return "link-local"
  if ((first & 0xffc0) === 0xfec0) return "private" // site-local, deprecated
  if ((first & 0xff00) === 0xff00) return "multicast"
  if (g[0] === 0x64 && g[1] === 0xff9b && g[2] === 1) return "reserved" // local-use NAT64
  if (first === 0x100 && zeros(1, 4)) return "reserved" // discard-only
  if (first === 0x2001 && g[1]! < 0x200) return "reserved" // IETF protocol assignments, Teredo included
  if (first === 0x2001 && g[1] === 0xdb8) return "reserved" // documentation
  if ((first & 0xe000) !== 0x2000) return "reserved" // outside 2000::/3, global unicast
  return "public"
}

/** The class of an IP address as DNS or a URL gives it (IPv6 with or without brackets). Anything else is `invalid`. */
export const classifyAddress = (address: string): AddressClass => {
  const v4 = parseIpv4(address)
  if (v4) return classifyV4(v4)
  const v6 = parseIpv6(address)
  return v6 ? classifyV6(v6) : "invalid"
}

/** The address as an IP literal (brackets stripped), or null for a name. */
export const ipLiteral = (hostname: string): string | null => {
  const bare = hostname.startsWith("[") && hostname.endsWith("]") ? hostname.slice(1, -1) : hostname
  return parseIpv4(bare) || parseIpv6(bare) ? bare : null
}
