/**
 * Text that came from a source, made fit for an error message. An http source's URL is fetched by this server,
 * so an error that echoed its response would let anyone who may add a source read internal services through
 * it: an http upstream's text is cut to a short excerpt, with control and invisible characters removed and the
 * source's secrets scrubbed. A stdio source is the operator's own command: its text is only bounded.
 */
import { scrubSecrets } from "./config-secrets.js"
import type { McpSourceConfig } from "./config.js"

/** The most characters of an http upstream's text an error carries. */
export const HTTP_EXCERPT_CHARS = 120
/** The most characters of a stdio server's message an error carries. */
export const STDIO_TEXT_CHARS = 2_000
/** The end of a stdio server's stderr that explains a crash. */
export const STDERR_TAIL_CHARS = 500

// C0 and C1 controls, zero-width and bidi formatting characters, the BOM
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u00ad\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff]+/g

/** No lone half of a surrogate pair at a cut. */
const cutAt = (text: string, max: number) => {
  const end = max > 0 && /[\ud800-\udbff]/.test(text.charAt(max - 1)) ? max - 1 : max
  return text.slice(0, end)
}

/** One line of printable text, at most `max` characters, saying so when it was cut. */
export const excerpt = (text: string, max = HTTP_EXCERPT_CHARS): string => {
  const clean = text
    .replace(UNPRINTABLE, " ")
    .replace(/\s{2,}/g, " ")
    .trim()
  return clean.length <= max ? clean : `${cutAt(clean, max)}… (cut to ${max} characters)`
}

const bounded = (text: string, max: number) =>
  text.length <= max ? text : `${cutAt(text, max)}… (cut to ${max} characters)`

export const stderrTail = (stderr: string) => stderr.slice(-STDERR_TAIL_CHARS)

/** Scrubbed of the source's secrets first (a secret across the cut goes whole), then cut (http) or bounded (stdio). */
export const upstreamMessage = (config: McpSourceConfig | null | undefined, text: string): string => {
  const scrubbed = scrubSecrets(config, text)
  return config?.transport?.type === "http" ? excerpt(scrubbed) : bounded(scrubbed, STDIO_TEXT_CHARS)
}

const SDK_HTTP_PREFIX = "Streamable HTTP error: "
const SDK_POST_PREFIX = "Error POSTing to endpoint: "

/**
 * An error's message, with what we know put first: the SDK's `Streamable HTTP error: Error POSTing to endpoint:
 * <body>` becomes `HTTP 500: <body>`, so the excerpt is spent on the upstream's words rather than on ours; a
 * failed fetch names its cause (`fetch failed` alone says nothing).
 */
export const errorText = (cause: unknown): string => {
  if (!(cause instanceof Error)) return String(cause)
  const status = (cause as { code?: unknown }).code
  if (cause.message.startsWith(SDK_HTTP_PREFIX)) {
    let rest = cause.message.slice(SDK_HTTP_PREFIX.length)
    if (rest.startsWith(SDK_POST_PREFIX)) rest = rest.slice(SDK_POST_PREFIX.length)
    return typeof status === "number" && status > 0 ? `HTTP ${status}: ${rest}` : rest
  }
  const inner = (cause as { cause?: unknown }).cause
  if (cause.message === "fetch failed" && inner instanceof Error) return `fetch failed: ${inner.message}`
  return cause.message
}
