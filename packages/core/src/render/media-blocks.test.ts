import { expect, it } from "vitest"
import { splitMedia } from "./media-blocks.js"

const image = { type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" }
const audio = { type: "audio", data: "UklGRg==", mimeType: "audio/wav" }

it.each([
  ["a lone image block is media only", image, { value: undefined, media: [image] }],
  [
    "a tool's image+caption data: the block, and the caption as text",
    [image, { type: "text", text: "a tiny image" }],
    { value: "a tiny image", media: [image] },
  ],
  ["several media blocks keep their order", [audio, image], { value: undefined, media: [audio, image] }],
  ["non-block items beside media stay a value", [image, { n: 1 }], { value: [{ n: 1 }], media: [image] }],
  [
    "an object that only looks like an image (no data) is not media",
    { type: "image", url: "x" },
    { value: { type: "image", url: "x" }, media: [] },
  ],
  ["plain values pass through", { a: 1 }, { value: { a: 1 }, media: [] }],
  ["strings pass through", "text", { value: "text", media: [] }],
])("%s", (_name, input, expected) => {
  expect(splitMedia(input)).toEqual(expected)
})
