/**
 * Runs inside QuickJS: makes the `console` global, on the script's first read of it (sandbox-globals.ts).
 * Its formatter (format.ts) is compiled only on the first call that logs. Bundled by
 * scripts/build-prelude.mjs into dist/prelude.js; never import it from host code.
 */
import { logLevels } from "./protocol.js"
import type { MakeConsole } from "./protocol.js"

const makeConsole: MakeConsole = (logHost, loadFormat, stringify) => {
  let format: ((value: unknown) => string) | undefined
  const console: Record<string, (...args: unknown[]) => void> = {}
  for (const level of logLevels)
    console[level] = (...args) => logHost(level, args.map((format ??= loadFormat(stringify))).join(" "))
  return console
}

export default makeConsole
