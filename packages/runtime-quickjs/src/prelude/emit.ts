/**
 * Runs inside QuickJS: makes the `emit` global, on the script's first read of it (sandbox-globals.ts).
 * `emit(block)` hands an MCP content block (an image, audio, text...) to the caller beside the result. The
 * host keeps a JSON copy and checks it; a value that is not a block is a TypeError here, in the script.
 * Bundled by scripts/build-prelude.mjs into dist/prelude.js; never import it from host code.
 */
import { copy } from "./copy.js"
import type { MakeEmit } from "./protocol.js"

const makeEmit: MakeEmit = (emitHost, stringify) => (block) => {
  const problem = emitHost(...copy(stringify, block))
  if (problem) throw new TypeError(problem)
}

export default makeEmit
