/**
 * The one function that turns a script's result into text for a model (DESIGN §6).
 * A string is its own text, never JSON-quoted; lone UTF-16 surrogates become U+FFFD (a provider refuses
 * them and UTF-8 cannot store them); "", undefined and null are all the empty result; anything else is
 * JSON, encoded once.
 */
export const renderForModel = (value: unknown): string => {
  if (value === undefined || value === null) return ""
  if (typeof value === "string") return toWellFormed(value)
  return toWellFormed(JSON.stringify(value) ?? "")
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g

export const toWellFormed = (text: string): string => text.replace(LONE_SURROGATE, "\uFFFD")
