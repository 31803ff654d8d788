/**
 * `--log-format pretty`: each JSON line pino makes, as one line for people:
 *
 *     22:41:07.514 INFO  POST /v1/execute 200 1.9 ms execution=0193… key=k_12
 *     22:41:09.002 WARN  lazy re-sync failed; serving the previous catalog namespace=gh error="…"
 *
 * A formatter of our own rather than pino-pretty: our lines have one known shape, this is a few lines with no
 * dependency, and it runs in the process, synchronously, where pino-pretty as a transport runs in a worker thread
 * of its own (a third thread beside the pool's on a two-core machine).
 */
import type { DestinationStream } from "pino"

const shown = (value: unknown) =>
  typeof value === "string" && /^[^\s"=]+$/.test(value) ? value : JSON.stringify(value)

const fields = (entries: [string, unknown][]) =>
  entries
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => ` ${key}=${shown(value)}`)
    .join("")

const formatLine = (json: string): string => {
  const { time, level, message, ...rest } = JSON.parse(json) as Record<string, unknown>
  const head = `${String(time).slice(11, 23)} ${String(level).toUpperCase().padEnd(5)} `
  if (message === "request") {
    const { method, route, status, durationMs, executionId, keyId, errorCode, ...more } = rest
    const line = `${method} ${route ?? "(no route)"} ${status} ${durationMs} ms`
    return `${head}${line}${fields([
      ["execution", executionId],
      ["key", keyId],
      ["error", errorCode],
      ...Object.entries(more),
    ])}\n`
  }
  return `${head}${message}${fields(Object.entries(rest))}\n`
}

export const prettyLines = (out: DestinationStream): DestinationStream => ({
  write: (chunk: string) => {
    // pino writes one line per call, ending in a newline
    out.write(formatLine(chunk))
  },
})
