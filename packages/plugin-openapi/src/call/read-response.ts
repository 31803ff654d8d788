/**
 * An HTTP answer -> a raw result. Every body is read within a bound (never whole before it is counted), and text
 * is scrubbed of the source's secrets before anything parses it. A 2xx answer's data: JSON parsed without loss
 * (as an MCP text block is: a number past 2^53 or a duplicate key leaves the text as it came), text as a string,
 * anything else as `{ contentType, bytes, base64 }`. `meta` is `{ status, headers }` without cookies or credentials.
 * Any other status fails with `http_<status>`, a short excerpt of the body and its parsed JSON as `data`.
 */
import { ToolErrorCodes, countJsonNodes, parseExactJson } from "@switchboard/core"
import type { RawInvokeResult } from "@switchboard/core"
import { isJsonMediaType } from "../derive/request-body.js"
import { responseHeaders } from "./response-headers.js"

export interface ResponseLimits {
  /** the largest JSON or text body read (default 64 MiB) */
  maxBytes: number
  /** the largest binary body handed to a script as base64 (default 8 MiB) */
  maxBinaryBytes: number
  /** keys and elements a JSON body may hold (default 50,000) */
  maxNodes: number
}

/** what an error answer keeps of its body: enough for a JSON error, not a page */
export const ERROR_BODY_BYTES = 64 * 1024
/** characters of an error body in its message */
export const EXCERPT_CHARS = 200

class TooLarge extends Error {
  readonly _tag = "TooLarge"
}

/** The body's bytes, at most `max` of them; past it the rest is cancelled (`cut`: keep the first `max`, else fail). */
const readBounded = async (response: Response, max: number, cut: boolean): Promise<Uint8Array> => {
  if (!response.body) return new Uint8Array()
  const reader = response.body.getReader()
  const parts: Uint8Array[] = []
  let total = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    if (total + value.byteLength > max) {
      await reader.cancel().catch(() => undefined)
      if (!cut) throw new TooLarge()
      parts.push(value.subarray(0, max - total))
      total = max
      break
    }
    parts.push(value)
    total += value.byteLength
  }
  const bytes = new Uint8Array(total)
  let offset = 0
  for (const part of parts) {
    bytes.set(part, offset)
    offset += part.byteLength
  }
  return bytes
}

const isText = (type: string) =>
  /^text\//.test(type) ||
  /^application\/(?:[\w.+-]+\+)?(?:xml|yaml|x-yaml|javascript|x-www-form-urlencoded)\b/.test(type)

const toBase64 = (bytes: Uint8Array) => {
  let binary = ""
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000))
  return btoa(binary)
}

// C0 and C1 controls, zero-width and bidi formatting characters, the BOM
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u00ad\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff]+/g

export const excerpt = (text: string, max = EXCERPT_CHARS) => {
  const clean = text
    .replace(UNPRINTABLE, " ")
    .replace(/\s{2,}/g, " ")
    .trim()
  return clean.length <= max ? clean : `${clean.slice(0, max)}… (cut to ${max} characters)`
}

/** JSON text as data: lossless, else the text itself (a big number must not round silently). */
const jsonData = (text: string): unknown => {
  if (text.trim() === "") return null
  const exact = parseExactJson(text)
  if (exact.ok) return exact.value
  try {
    const value: unknown = JSON.parse(text)
    // a scalar is exact when it reads back as written (not 9007199254740993 or 1e400)
    if (typeof value !== "object" && JSON.stringify(value) === text.trim()) return value
    if (typeof value === "string" || typeof value === "boolean" || value === null) return value
  } catch {
    // not JSON after all: the text is the data
  }
  return text
}

const tooLarge = (what: string, bound: string): RawInvokeResult => ({
  ok: false,
  code: ToolErrorCodes.toolResultTooLarge,
  message: `the answer's ${what} is larger than ${bound}; it was not read. A narrower request (a page, a filter) fits`,
})

export const readResponse = async (
  response: Response,
  scrub: (text: string) => string,
  limits: ResponseLimits,
  hiddenHeaders: ReadonlySet<string>,
): Promise<RawInvokeResult> => {
  const status = response.status
  const meta = { status, headers: responseHeaders(response.headers, hiddenHeaders) }
  const type = (response.headers.get("content-type") ?? "").toLowerCase()
  if (status < 200 || status > 299) {
    const text = scrub(new TextDecoder().decode(await readBounded(response, ERROR_BODY_BYTES, true)))
    let data: unknown
    if (isJsonMediaType(type) || /^\s*[[{]/.test(text)) {
      try {
        data = JSON.parse(text)
      } catch {
        data = undefined
      }
    }
    const words = excerpt(text)
    return {
      ok: false,
      code: `http_${status}`,
      message: `HTTP ${status}${response.statusText ? ` ${response.statusText}` : ""}${words ? `: ${words}` : ""}`,
      ...(data !== undefined ? { data } : {}),
    }
  }
  const json = isJsonMediaType(type)
  if (json || isText(type) || type === "") {
    let bytes: Uint8Array
    try {
      bytes = await readBounded(response, limits.maxBytes, false)
    } catch (cause) {
      if ((cause as { _tag?: unknown })._tag === "TooLarge") return tooLarge("body", `${limits.maxBytes} bytes`)
      throw cause
    }
    if (!json && type === "" && bytes.length > 0 && !isUtf8Text(bytes)) return binary(bytes, type, limits, meta)
    const text = scrub(new TextDecoder().decode(bytes))
    if (!json) return { ok: true, raw: bytes.length === 0 && type === "" ? null : text, meta }
    const nodes = countJsonNodes(text)
    if (nodes > limits.maxNodes) return tooLarge("JSON", `${limits.maxNodes} keys and elements (it has ${nodes})`)
    return { ok: true, raw: jsonData(text), meta }
  }
  try {
    return binary(await readBounded(response, limits.maxBinaryBytes, false), type, limits, meta)
  } catch (cause) {
    if ((cause as { _tag?: unknown })._tag === "TooLarge") return tooLarge("body", `${limits.maxBinaryBytes} bytes`)
    throw cause
  }
}

const isUtf8Text = (bytes: Uint8Array) => {
  try {
    new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes)
    return true
  } catch {
    return false
  }
}

const binary = (bytes: Uint8Array, type: string, limits: ResponseLimits, meta: unknown): RawInvokeResult =>
  bytes.length > limits.maxBinaryBytes
    ? tooLarge("body", `${limits.maxBinaryBytes} bytes`)
    : {
        ok: true,
        raw: { contentType: type || "application/octet-stream", bytes: bytes.length, base64: toBase64(bytes) },
        meta,
      }
