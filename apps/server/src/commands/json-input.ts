/** A JSON object given to a command: as the argument itself, in a file (`@path`) or on stdin (`-`). */
import { readFileSync } from "node:fs"
import { fail } from "./common.js"

const kindOf = (value: unknown) => (value === null ? "null" : Array.isArray(value) ? "an array" : `a ${typeof value}`)

const read = (given: string, what: string): { text: string; from: string } => {
  if (given === "-") return { text: readFileSync(0, "utf8"), from: "on stdin" }
  if (!given.startsWith("@")) return { text: given, from: "" }
  const path = given.slice(1)
  try {
    return { text: readFileSync(path, "utf8"), from: `in ${path}` }
  } catch (error) {
    return fail(`cannot read ${what} from ${path}: ${(error as Error).message}`)
  }
}

/** The object; what is not JSON, or not an object, stops the command (exit 2) saying what was wrong. */
export const jsonObject = (given: string, what: string): Record<string, unknown> => {
  const { text, from } = read(given, what)
  const where = from ? ` (${from})` : ""
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    return fail(`${what} must be a JSON object${where}: ${(error as Error).message}`)
  }
  if (typeof value !== "object" || value === null || Array.isArray(value))
    return fail(`${what} must be a JSON object${where}, not ${kindOf(value)}`)
  return value as Record<string, unknown>
}
