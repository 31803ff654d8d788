/** Rows for a person to read: columns as wide as their widest cell, two spaces apart, a header line first. */
import { escapeUnsafe } from "@switchboard/api"

/**
 * a cell on one line: any run of whitespace (a newline in an error message) becomes one space, and a control or
 * bidi character is shown as its escape, so no cell can move the cursor, reorder a line or hide text
 */
const oneLine = (cell: string) => escapeUnsafe(cell.replace(/\s+/g, " ").trim())

export const table = (header: readonly string[], rows: readonly (readonly string[])[]): string => {
  const lines = [header, ...rows].map((row) => row.map(oneLine))
  const widths = header.map((_, column) => Math.max(...lines.map((row) => row[column]?.length ?? 0)))
  return lines
    .map((row) =>
      row
        .map((cell, column) => cell.padEnd(widths[column]!))
        .join("  ")
        .trimEnd(),
    )
    .map((line) => `${line}\n`)
    .join("")
}

/** an ISO time to the second, in UTC: `2026-05-01 12:00:00Z`; `never` for none */
export const when = (time: string | number | null) =>
  time === null
    ? "never"
    : new Date(time)
        .toISOString()
        .replace("T", " ")
        .replace(/\.\d+Z$/, "Z")
