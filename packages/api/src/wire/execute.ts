/** The answer of POST /v1/execute. The request is core's (`executeRequest`): the executor validates it. */
import { z } from "zod"
import * as Render from "@switchboard/core/render"
import { RunErrorCodes } from "@switchboard/core"

export const logEntry = z.object({
  level: z.enum(["log", "info", "warn", "error", "debug"]),
  message: z.string(),
})

/** What every answer says about the execution's record. */
const record = {
  executionId: z.string().optional().describe("present exactly when `stored` is true"),
  stored: z
    .boolean()
    .describe("whether the execution's record was stored; only then is `executionId` given and can it be read back"),
  warning: z
    .string()
    .optional()
    .describe(
      "present when `stored` is false: why the record could not be stored (the database's error, and a correlation id for the server log)",
    ),
}

export const executeSuccess = z.object({
  ...record,
  ok: z.literal(true),
  result: z.unknown().describe("what the script returned, as JSON"),
  text: z
    .string()
    .describe(
      `the result for a model: a string as its own text, anything else as JSON; past ${Render.DEFAULT_INLINE_CAP} characters, ` +
        "the first lines and a line saying how to read the rest (or, when `stored` is false, that the rest could not be kept)",
    ),
  truncated: z
    .object({ totalLines: z.int(), totalChars: z.int() })
    .optional()
    .describe("present when text was cut; read the rest at GET /v1/executions/{id}/output (when `stored` is true)"),
  media: z
    .array(z.looseObject({ type: z.string() }))
    .optional()
    .describe("image and audio content blocks the script returned or emitted"),
  logs: z.array(logEntry),
})

/** `overloaded` never reaches a 200: it is the 429. */
const failureCodes = Object.values(RunErrorCodes).filter((code) => code !== RunErrorCodes.overloaded)

export const executeFailure = z.object({
  ...record,
  ok: z.literal(false),
  error: z.object({
    code: z.enum(failureCodes as [string, ...string[]]).describe("each limit has its own code"),
    message: z.string(),
    line: z.int().optional().describe("1-based, in the script as written"),
    column: z.int().optional(),
  }),
  logs: z.array(logEntry),
})

export const executeBody = z
  .discriminatedUnion("ok", [executeSuccess, executeFailure])
  .describe("A script that fails is still a 200: `ok` is false and `error.code` names the cause")
export type ExecuteBody = z.input<typeof executeBody>
