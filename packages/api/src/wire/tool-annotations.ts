/**
 * A tool's annotations as the API shows them, from what the catalog stores: the object the source sent, kept whole.
 * Only the fields MCP defines, each of its type, go out: a source's other keys, or a hint that is not a boolean,
 * would otherwise reach every client unchecked.
 */
import * as Policy from "@switchboard/core/policy"
import { isRecord } from "@switchboard/core"
import type { ToolAnnotations } from "./tools.js"

export const annotationsView = (stored: unknown): ToolAnnotations => {
  if (!isRecord(stored)) return {}
  const view: ToolAnnotations = typeof stored.title === "string" ? { title: stored.title } : {}
  for (const hint of Policy.POLICY_ANNOTATIONS) {
    const value = stored[hint]
    if (typeof value === "boolean") view[hint] = value
  }
  return view
}
