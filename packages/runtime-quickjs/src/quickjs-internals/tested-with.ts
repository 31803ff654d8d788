/**
 * The exact releases this folder was written against. package.json pins the same versions; an upgrade changes
 * both only after each reach in README.md is checked again (test/quickjs-internals.test.ts fails until then).
 */
export const testedWith = {
  "quickjs-emscripten-core": "0.32.0",
  "@jitl/quickjs-wasmfile-release-sync": "0.32.0",
} as const
