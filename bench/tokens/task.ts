/** One fixed task, done both ways: by direct tool calls, and by one Switchboard script. */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js"

/** A direct call, `namespace.tool`, answered as the SDK returns it. */
export type CallDirectly = (path: string, args: Record<string, unknown>) => Promise<CallToolResult>

export interface Task {
  name: string
  /** what a model searches the catalog for, one describe `{ query }` each, before it writes the script */
  searches: string[]
  /** the tools the script calls: any that no search answer declared is then described by path */
  uses: string[]
  /**
   * the fields the script reads, by tool, that its first declaration left as records naming them: asked for by a
   * second describe with `fields`, as a model would
   */
  fields?: Record<string, string[]>
  script: string
  /** the direct calls the same task takes without code mode, each argument written from earlier results */
  native(call: CallDirectly): Promise<void>
  /** the script's answer is the task done (else the bench stops: its figures would mean nothing) */
  done(text: string): boolean
}

/** What a direct call's result holds, for the next call's arguments. */
export const structuredOf = <T>(result: CallToolResult): T => {
  if (result.isError) throw new Error(`a direct call failed: ${JSON.stringify(result.content)}`)
  return result.structuredContent as T
}

export const firstText = (result: CallToolResult): string => {
  if (result.isError) throw new Error(`a direct call failed: ${JSON.stringify(result.content)}`)
  const [block] = result.content
  return block?.type === "text" ? block.text : ""
}
