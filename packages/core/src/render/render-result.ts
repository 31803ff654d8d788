/**
 * A script's value as a model is shown it: its image and audio blocks apart (./media-blocks.ts), and the text of
 * the rest (./render-for-model.ts). The executor calls it, unless the runtime already did off the main thread
 * (RunOptions.render): a large value's text takes tens of milliseconds to make.
 */
import type { ContentBlock } from "../result.js"
import { splitMedia } from "./media-blocks.js"
import { renderForModel, renderJson } from "./render-for-model.js"

export interface RenderOptions {
  /** results whose compact JSON fits this many characters stay compact (renderForModel's inline cap) */
  inlineCap: number
  /** the longest the laid-out text may be, in characters; past it the compact JSON is the text */
  maxChars: number
}

export interface RenderedResult {
  /** the text stored with the execution, which the response cuts at the inline cap */
  text: string
  media: ContentBlock[]
  /**
   * The value's JSON as `JSON.stringify` writes it, for an object or array: made once with the text, so an
   * answer that carries the value writes this instead of encoding it again. A runtime that renders off the main
   * thread sends this in place of the value (RunOutcome), which the main thread then never has to rebuild.
   */
  json?: string
}

export const renderResult = (value: unknown, options: RenderOptions): RenderedResult => {
  const { value: rest, media } = splitMedia(value)
  if (media.length > 0 || typeof value !== "object" || value === null)
    return { text: renderForModel(rest, options.inlineCap, options.maxChars), media }
  const json = JSON.stringify(value)
  return { text: renderJson(value, json, options.inlineCap, options.maxChars), media, json }
}
