/**
 * What the playground's script is checked against: the catalog's declarations as `POST /v1/describe` writes them,
 * and what the sandbox adds (`console`, `emit`, `tools.$describe` and `tools.$search`). Describe answers a block of
 * at most 100 tools, each with its own `declare const tools`; each block goes in a namespace of its own, and
 * `tools` is the blocks' together.
 */

/** what the sandbox gives a script besides `tools` (runtime-quickjs's prelude) */
const SANDBOX = `declare const console: {
  log(...data: unknown[]): void
  info(...data: unknown[]): void
  warn(...data: unknown[]): void
  error(...data: unknown[]): void
  debug(...data: unknown[]): void
}
/** hands a content block (an image, audio, text...) to the caller beside the result */
declare function emit(block: { type: string; [key: string]: unknown }): void`

/** the discovery the sandbox's \`tools\` adds, typed with a block's ToolResult (null: no block, no catalog) */
const discovery = (result: string | null) => {
  const answer = (data: string) => (result ? `Promise<${result}<${data}>>` : "Promise<unknown>")
  return `{
  /** TypeScript declarations of these tools, as describe writes them */
  $describe(paths: string | string[]): ${answer("string")}
  /** the tools that match the query, best first */
  $search(query: string, limit?: number): ${answer("{ path: string; description: string | null }[]")}
}`
}

export const scriptDeclarations = (blocks: string[]) => {
  const namespaces = blocks.map(
    (block, i) => `declare namespace Catalog${i} {\n${block.replace(/^declare const tools:/m, "const tools:")}\n}`,
  )
  const tools = [
    ...blocks.map((_, i) => `typeof Catalog${i}.tools`),
    discovery(blocks.length > 0 ? "Catalog0.ToolResult" : null),
  ]
  return [SANDBOX, ...namespaces, `declare const tools: ${tools.join(" & ")}`].join("\n\n")
}
