/**
 * One line per tool for the MCP `describe` search: its path, its description's first sentence (within the first
 * paragraph), and a policy mark.
 */
import type * as Catalog from "@switchboard/core/catalog"
import type * as Policy from "@switchboard/core/policy"

/** Long enough for a tool's purpose; its whole description comes with its declaration. */
const SUMMARY_CHARS = 120

/** The first sentence of the first paragraph: an OpenAPI tool's summary is a paragraph of its own, without a stop. */
const summaryOf = (description: string | null): string => {
  const paragraph = (description ?? "").trim().split(/\n\s*\n/)[0] ?? ""
  const text = paragraph.replace(/\s+/g, " ").trim()
  const end = text.search(/[.!?](\s|$)/)
  const sentence = end >= 0 ? text.slice(0, end + 1) : text
  return sentence.length > SUMMARY_CHARS ? `${sentence.slice(0, SUMMARY_CHARS - 1).trimEnd()}…` : sentence
}

/** What a model must know before it picks a tool: a call of it will not run, or waits for a person. */
const marks: Record<Policy.EffectivePolicy["action"], string> = {
  allow: "",
  require_approval: " [needs a person's approval]",
  block: " [blocked by policy]",
}

export const searchLine = (
  tool: Pick<Catalog.ToolRow, "path" | "description">,
  policy: Pick<Policy.EffectivePolicy, "action">,
) => {
  const summary = summaryOf(tool.description)
  return `${tool.path}${summary ? ` — ${summary}` : ""}${marks[policy.action]}`
}
