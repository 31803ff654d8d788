/**
 * The in-thread runtime, a module of its own that runtime.ts imports only when it is chosen: a bundler puts it, and
 * QuickJS with its TypeScript stripper, in a file a server never loads (a dynamic import of the package's index
 * would make every export of it live, the stack limit flags/runtime-flags.ts reads included).
 */
export { createQuickJsRuntime } from "@switchboard/runtime-quickjs"
