/** The probes' answers: /healthz and /readyz. */
import { z } from "zod"

export const healthBody = z.object({ ok: z.literal(true) })

export const readyBody = z.object({ ok: z.literal(true) })

export const notReadyBody = z.object({
  ok: z.literal(false),
  reason: z.string().describe("the database's own error, never a failed query's text"),
})
