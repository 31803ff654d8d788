import { describe, expect, it } from "vitest"
import { searchLine } from "./search-line.js"

const allow = { action: "allow" as const }

describe("searchLine", () => {
  it("is the path and the description's first sentence, whitespace folded", () => {
    const tool = {
      path: "files.read_text_file",
      description: "Read the complete contents of a file\n  as text. Handles various encodings. Use it for one file.",
    }
    expect(searchLine(tool, allow)).toBe("files.read_text_file — Read the complete contents of a file as text.")
  })

  it("ends at the first paragraph: an OpenAPI operation's summary, then its description", () => {
    const tool = {
      path: "github.issues/list-for-repo",
      description: "List repository issues\n\nList issues in a repository. Only open issues will be listed.",
    }
    expect(searchLine(tool, allow)).toBe("github.issues/list-for-repo — List repository issues")
  })

  it("cuts a long first sentence with an ellipsis, and a dot inside a word does not end it", () => {
    const line = searchLine({ path: "api.get", description: `Get the v1.2 ${"very ".repeat(40)}long thing.` }, allow)
    expect(line).toMatch(/^api\.get — Get the v1\.2 very very .*…$/)
    expect(line).not.toContain("long thing")
    expect(line.length).toBeLessThanOrEqual("api.get — ".length + 120)
  })

  it("is the path alone for a tool without a description", () => {
    expect(searchLine({ path: "ns.tool", description: null }, allow)).toBe("ns.tool")
    expect(searchLine({ path: "ns.tool", description: "  " }, allow)).toBe("ns.tool")
  })

  it("says when a call will wait for a person or never run", () => {
    const tool = { path: "files.write_file", description: "Write a file." }
    expect(searchLine(tool, { action: "require_approval" })).toBe(
      "files.write_file — Write a file. [needs a person's approval]",
    )
    expect(searchLine(tool, { action: "block" })).toBe("files.write_file — Write a file. [blocked by policy]")
  })
})
