import { expect, it } from "vitest"
import { PREVIEW_CHARS, codePreview } from "./code-preview.js"

it("is the first line that is not blank, trimmed, whatever ends the lines", () => {
  expect(codePreview("return 1")).toBe("return 1")
  expect(codePreview("const a = 1\nreturn a")).toBe("const a = 1")
  expect(codePreview("const a = 1\r\nreturn a")).toBe("const a = 1")
  expect(codePreview("const a = 1\rreturn a")).toBe("const a = 1")
  expect(codePreview("\n \t\r\n   // fetch  \nreturn 1")).toBe("// fetch")
  expect(codePreview(" \n\n")).toBe("")
  expect(codePreview("")).toBe("")
})

it("is at most 120 UTF-16 units, and never ends in half of a surrogate pair", () => {
  expect(codePreview("x".repeat(500))).toBe("x".repeat(PREVIEW_CHARS))
  expect(codePreview(`${"x".repeat(118)}😀😀`)).toBe(`${"x".repeat(118)}😀`)
  expect(codePreview(`${"x".repeat(119)}😀`)).toBe("x".repeat(119))
  expect(codePreview(`${"x".repeat(119)}é and more`)).toBe(`${"x".repeat(119)}é`)
})
