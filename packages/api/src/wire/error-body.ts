/** `{"error":{"code","message"}}`: every error the API answers, whatever its status. */
import { z } from "zod"

export const errorBody = z
  .object({
    error: z.object({
      code: z.string().describe("stable; the codes of each status are listed with its response"),
      message: z.string().describe("for a person or a model: says what to change"),
    }),
  })
  .describe('every error: `{"error":{"code","message"}}`')

export type ErrorBody = z.output<typeof errorBody>
