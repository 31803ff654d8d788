/** A result as the model reads it, and stored output read by lines and searched. */
export { parseOnRead } from "./parse-on-read.js"
export { readOutputLines, grepInPlace, DEFAULT_PAGE_LINES, MAX_PAGE_LINES, MAX_GREP_MATCHES } from "./read-output.js"
export type { GrepOutcome, GrepRunner, OutputPages } from "./read-output.js"
export { renderForModel, inlineText, DEFAULT_INLINE_CAP } from "./render-for-model.js"
export type { ReadOn } from "./render-for-model.js"
export { renderResult } from "./render-result.js"
export type { RenderOptions, RenderedResult } from "./render-result.js"
