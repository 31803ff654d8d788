/**
 * A source this server will not start or reach, by its configuration: a stdio source without --allow-stdio (or
 * whose env would load code, without --allow-stdio-code-env), or an address the host's egress guard refuses. A
 * value with a stable code (core's SourceRefusalCodes), never a failure of the source; nothing was attempted
 * upstream.
 */
import { Data } from "effect"
import { SourceRefusalCodes } from "@switchboard/core"
import type { SourceRefusalCode } from "@switchboard/core"

export class SourceRefusal extends Data.TaggedError("SourceRefusal")<{ code: SourceRefusalCode; message: string }> {}

export const STDIO_DISABLED_MESSAGE =
  "stdio sources run a command on this host and are disabled on this server; start it with --allow-stdio to enable them"

export const stdioDisabled = () =>
  new SourceRefusal({ code: SourceRefusalCodes.sourceDisabled, message: STDIO_DISABLED_MESSAGE })

export const STDIO_UNAVAILABLE_MESSAGE = "stdio sources run a command on the host, and this host cannot start processes"

export const stdioUnavailable = (message = STDIO_UNAVAILABLE_MESSAGE) =>
  new SourceRefusal({ code: SourceRefusalCodes.sourceDisabled, message })

/**
 * A stdio source whose env sets variables that make its command load code (./code-env.ts). The message names
 * the variables, never their values (a value may be a secret).
 */
export const codeLoadingEnv = (names: readonly string[]) => {
  const fields = names.map((name) => `transport.env.${name}`).join(", ")
  const what = names.length === 1 ? "it" : "them"
  return new SourceRefusal({
    code: SourceRefusalCodes.codeLoadingEnv,
    message:
      `${fields} can make the command load code of the sender's choosing (as NODE_OPTIONS, LD_PRELOAD or PYTHONPATH can), ` +
      `and this server refuses such variables in a stdio source's env; remove ${what}, or start the server with ` +
      "--allow-stdio-code-env to allow them",
  })
}

/** A tag check rather than `instanceof` (ARCHITECTURE.md: tagged errors): a host's fetch may throw it from another copy of this package. */
export const isSourceRefusal = (value: unknown): value is SourceRefusal =>
  typeof value === "object" && value !== null && (value as { _tag?: unknown })._tag === "SourceRefusal"

/** The refusal in an error or in its `cause` chain: the SDK and fetch wrap what a guarded fetch throws. */
export const findRefusal = (cause: unknown): SourceRefusal | null => {
  let current = cause
  for (let depth = 0; depth < 6 && typeof current === "object" && current !== null; depth++) {
    if (isSourceRefusal(current)) return current
    current = (current as { cause?: unknown }).cause
  }
  return null
}
