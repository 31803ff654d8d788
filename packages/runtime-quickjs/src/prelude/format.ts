/**
 * How `console` prints a value inside QuickJS. A piece of the prelude compiled only on a run's first
 * console call that logs (console.ts), since compiling it costs more than console itself. Bundled by
 * scripts/build-prelude.mjs into dist/prelude.js. `stringify` is the JSON.stringify the host captured
 * before the script ran.
 */
const makeFormat =
  (stringify: typeof JSON.stringify) =>
  /** Roughly what Node prints: strings as they are, errors with their stack, other values as JSON. */
  (value: unknown): string => {
    if (typeof value === "string") return value
    try {
      if (value instanceof Error) return `${value.name}: ${value.message}\n${value.stack ?? ""}`.trimEnd()
      if (typeof value === "object" && value) return stringify(value)
      if (typeof value === "bigint") return `${value}n`
      if (typeof value === "function") return `[Function ${value.name || "(anonymous)"}]`
    } catch {
      // a cycle or a throwing toJSON: String() below
    }
    try {
      return String(value)
    } catch {
      return "[unprintable]"
    }
  }

export default makeFormat
