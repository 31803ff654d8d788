/**
 * The stdio refusals (a stdio source without --allow-stdio, or whose env would load code without
 * --allow-stdio-code-env). The refusal type itself is core's, shared with the other plugins and the egress guard.
 */
import { SourceRefusal, SourceRefusalCodes } from "@switchboard/core"

export { SourceRefusal, findRefusal } from "@switchboard/core"

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
