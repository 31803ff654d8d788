/** Local `$ref` resolution (RFC 6901 pointers in a URI fragment). Remote references are not followed. */
import { isRecord, own } from "../is-record.js"

const MAX_SEGMENTS = 32

/** The pointer's segments for a local ref (`#`, `#/$defs/User`, `#/definitions/a~1b`), else null. */
export const parseLocalRef = (ref: string): string[] | null => {
  if (!ref.startsWith("#")) return null
  let fragment: string
  try {
    fragment = decodeURIComponent(ref.slice(1))
  } catch {
    return null
  }
  if (fragment === "") return []
  if (!fragment.startsWith("/")) return null // an `$anchor` name: not supported
  const segments = fragment.slice(1).split("/")
  if (segments.length > MAX_SEGMENTS) return null
  return segments.map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"))
}

export const pointerOf = (segments: readonly string[]): string =>
  `#${segments.map((s) => `/${s.replace(/~/g, "~0").replace(/\//g, "~1")}`).join("")}`

/** The value the segments point at inside `root`, or undefined. */
export const resolveSegments = (root: unknown, segments: readonly string[]): unknown => {
  let current = root
  for (const segment of segments) {
    if (Array.isArray(current)) {
      if (!/^(?:0|[1-9]\d*)$/.test(segment)) return undefined
      current = current[Number(segment)]
    } else if (isRecord(current)) {
      current = own(current, segment)
    } else {
      return undefined
    }
  }
  return current
}

/** `#/$defs/X` and `#/definitions/X` become named aliases; other local pointers are rendered inline. */
export const isDefinitionPointer = (segments: readonly string[]): boolean =>
  segments.length === 2 && (segments[0] === "$defs" || segments[0] === "definitions")
