/**
 * A script's value as a model is shown it: its image and audio blocks apart (./media-blocks.ts), and the text of
 * the rest (./render-for-model.ts). The executor calls it, unless the runtime already did off the main thread
 * (RunOptions.render): a large value's text takes tens of milliseconds to make.
 */
import type { ContentBlock } from "../result.js"
import { splitMedia } from "./media-blocks.js"
import { renderForModel } from "./render-for-model.js"

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
}

export const renderResult = (value: unknown, options: RenderOptions): RenderedResult => {
  const { value: rest, media } = splitMedia(value)
  return { text: renderForModel(rest, options.inlineCap, options.maxChars), media }
}
