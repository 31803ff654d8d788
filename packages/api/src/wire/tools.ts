/** The bodies of /v1/tools and /v1/describe. The describe request itself is core's (`describeRequest`). */
import { z } from "zod"
import * as Policy from "@switchboard/core/policy"
import { wholeNumber } from "@switchboard/core"

/** Rows a list or search answers at most. */
export const MAX_LIST_LIMIT = 1_000

export const toolsQuery = z.object({
  namespace: z.string().optional().describe("only this source's tools"),
  query: z
    .string()
    .optional()
    .describe(
      "rank by relevance over name, path, argument names and description (camelCase and snake_case split into words)",
    ),
  limit: wholeNumber("limit", { min: 1, max: MAX_LIST_LIMIT }).optional().describe("at most this many tools"),
})

const outputSource = z.enum(["declared", "observed", "unknown"]).describe("where the type of `r.data` came from")

/** the policy a call of the tool falls under (policies: GET /v1/policies) */
const toolPolicy = z.object({
  action: z
    .enum(Policy.POLICY_ACTIONS)
    .describe("allow; require_approval: the run pauses at the call for a person; block"),
  reason: z.string(),
})

export const toolSummary = z.object({
  path: z.string().describe("`<namespace>.<name>`"),
  namespace: z.string(),
  name: z.string(),
  description: z.string().nullable(),
})

export const toolsBody = z.object({ tools: z.array(toolSummary) })
export type ToolsBody = z.input<typeof toolsBody>

/** MCP's tool annotations as the source declared them: claims of the source, never checked */
export const toolAnnotations = z
  .object({
    title: z.string().optional().describe("a name for people"),
    readOnlyHint: z.boolean().optional().describe("true: the tool changes nothing"),
    destructiveHint: z
      .boolean()
      .optional()
      .describe("true: it may destroy or overwrite (with no policy rule, a call then waits for a person's approval)"),
    idempotentHint: z
      .boolean()
      .optional()
      .describe("true: calling it again with the same arguments changes nothing more"),
    openWorldHint: z.boolean().optional().describe("true: it reaches beyond the source (the web, other services)"),
  })
  .describe(
    "the hints the source declared, each left out when it declared none (an OpenAPI operation's come from its method)",
  )

export const toolDetail = toolSummary.extend({
  inputSchema: z.unknown().describe("the JSON Schema the source declared for the arguments"),
  outputSchema: z.unknown().describe("the JSON Schema the source declared for `r.data`, or null"),
  resultEncoding: z.string().nullable().describe("how the tool's results are decoded into `r.data` (null: direct)"),
  typescript: z.string().nullable().describe("a declaration to paste above a script"),
  outputSource: outputSource.nullable(),
  policy: toolPolicy.optional(),
  annotations: toolAnnotations,
})

export const toolBody = z.object({ tool: toolDetail })
export type ToolBody = z.input<typeof toolBody>
export type ToolAnnotations = z.input<typeof toolAnnotations>

export const describeBody = z.object({
  typescript: z.string().describe("one block declaring every tool, shared declarations once"),
  tools: z.array(
    z.object({ path: z.string(), description: z.string().nullable(), outputSource, policy: toolPolicy.optional() }),
  ),
  missing: z.array(z.string()).describe("requested paths with no tool"),
})
export type DescribeBody = z.input<typeof describeBody>
