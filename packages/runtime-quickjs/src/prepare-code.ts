import type { RunError } from "@switchboard/core"
import { transform } from "sucrase"
import { applyInsertions, completionInsertions } from "./completion-value.js"
import type { Insertion } from "./completion-value.js"

/** The file name QuickJS puts in stack frames of the script; frames of the prelude carry another name. */
export const scriptFilename = "script.ts"

// The script is the body of an async function. The opening sits on the script's first line, so every line
// number QuickJS reports is the user's own line; only columns on line 1 shift, by the prefix length.
const prefix = "(async () => {"
const suffix = "\n})()"

export interface PreparedCode {
  /** what QuickJS evaluates */
  source: string
  /** the script as the user sent it */
  original: string
  /** the script after type stripping, line for line the same as the original */
  stripped: string
  prefixLength: number
  /** what was added to the stripped script (the `return (` ... `)` around a final bare expression) */
  insertions: Insertion[]
}

export type Preparation = { ok: true; code: PreparedCode } | { ok: false; error: RunError }

const sucraseOptions = { transforms: ["typescript" as const], disableESTransforms: true }

/**
 * Strips TypeScript with sucrase, which keeps line numbers (types on a line are removed, lines never move).
 * The result is always source text: bytecode is never accepted, since loading untrusted QuickJS bytecode
 * is as unsafe as running untrusted native code. A final bare expression is returned (completion-value.ts).
 */
export const prepareCode = (original: string): Preparation => {
  let stripped: string
  try {
    stripped = transform(original, sucraseOptions).code
  } catch (failure) {
    return { ok: false, error: sucraseSyntaxError(failure) }
  }
  const insertions = completionInsertions(stripped)
  const body = applyInsertions(stripped, insertions)
  return {
    ok: true,
    code: { source: prefix + body + suffix, original, stripped, prefixLength: prefix.length, insertions },
  }
}

/** Source map of the type stripping, computed only when an error needs a column mapped back. */
export const strippingSourceMap = (original: string): string | undefined => {
  try {
    const result = transform(original, {
      ...sucraseOptions,
      filePath: scriptFilename,
      sourceMapOptions: { compiledFilename: "script.js" },
    })
    return result.sourceMap?.mappings
  } catch {
    return undefined
  }
}

const sucraseSyntaxError = (failure: unknown): RunError => {
  const raw = failure instanceof Error ? failure.message : String(failure)
  const error: RunError = { code: "syntax_error", message: `SyntaxError: ${raw.replace(/\s*\(\d+:\d+\)$/, "")}` }
  // sucrase reports a 1-based line and a 1-based column, like QuickJS
  const loc = (failure as { loc?: { line?: unknown; column?: unknown } } | null)?.loc
  if (typeof loc?.line === "number" && typeof loc.column === "number") {
    error.line = loc.line
    error.column = Math.max(1, loc.column)
  }
  return error
}
