import { expect, it } from "vitest"
import { annotationsView } from "./tool-annotations.js"

it("shows the annotations MCP defines, each of its type, and nothing else a source sent", () => {
  expect(
    annotationsView({
      title: "Write an entry",
      destructiveHint: true,
      readOnlyHint: false,
      idempotentHint: "yes",
      openWorldHint: null,
      secret: "not for clients",
    }),
  ).toEqual({ title: "Write an entry", destructiveHint: true, readOnlyHint: false })
  expect(annotationsView({ title: 7, openWorldHint: true })).toEqual({ openWorldHint: true })
  expect(annotationsView(null)).toEqual({})
  expect(annotationsView(["destructiveHint"])).toEqual({})
})
