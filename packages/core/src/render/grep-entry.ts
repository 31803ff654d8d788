/** The search of stored output alone, for a host's search thread (apps/server's grep worker), without the rest of core. */
export { grepOutput } from "./read-output.js"
