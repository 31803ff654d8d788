/**
 * A policy rule as POST /v1/policies and the config file's `policies` take it: defined once, in zod, for the
 * route's validation, the OpenAPI document and the config file's check.
 */
import { z } from "zod"
import { POLICY_ACTIONS, POLICY_ANNOTATIONS } from "./policy.js"
import { NAMESPACE_PATTERN } from "../request-schemas.js"

/** a path pattern: the characters of a tool path (`ns.tool`, names as upstream spells them), and `*` */
const PATTERN = /^[^\s*]*(\*[^\s*]*)*$/

export const policyRequest = z.strictObject(
  {
    pattern: z
      .string({ error: '"pattern" must be a tool path pattern such as "fs.*" or "github.delete_*"' })
      .min(1, { error: '"pattern" must not be empty' })
      .max(200, { error: '"pattern" must be at most 200 characters' })
      .regex(PATTERN, { error: '"pattern" holds no whitespace; `*` stands for any run of characters' })
      .optional()
      .describe("a tool path pattern: `*` stands for any run of characters (`fs.*`, `github.delete_*`)"),
    source: z
      .string({ error: `"source" must be a source's namespace` })
      .regex(NAMESPACE_PATTERN, {
        error: (issue) => `"source" must be a namespace (got ${JSON.stringify(issue.input)})`,
      })
      .optional()
      .describe("a source's namespace"),
    annotation: z
      .enum(POLICY_ANNOTATIONS, { error: `"annotation" must be one of ${POLICY_ANNOTATIONS.join(", ")}` })
      .optional()
      .describe("matches tools that declare this hint true"),
    action: z
      .enum(POLICY_ACTIONS, { error: `"action" must be one of ${POLICY_ACTIONS.join(", ")}` })
      .describe("allow, require_approval (a person decides each call) or block"),
    reason: z
      .string({ error: '"reason" must be a string' })
      .max(500, { error: '"reason" must be at most 500 characters' })
      .optional()
      .describe("why, for people: shown with an approval and in a blocked call's error"),
  },
  {
    error: (issue) =>
      issue.code === "unrecognized_keys"
        ? `unknown field ${issue.keys.map((k) => JSON.stringify(k)).join(", ")}; a rule has pattern, source, annotation, action and reason`
        : 'the body must be a JSON object: {"pattern": "fs.*", "action": "require_approval"}',
  },
)

export type PolicyRequest = z.output<typeof policyRequest>
