/**
 * The text `describe` answers with. For now each tool's path, description and declared schemas as JSON;
 * the one place to switch to core's TypeScript describe (DESIGN §5) once it lands.
 */
import type { ToolRow } from "@switchboard/core"

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/

/** How a script reaches the tool: a name that is not an identifier needs brackets. */
const callOf = (tool: ToolRow) => `await tools.${tool.namespace}${IDENTIFIER.test(tool.name) ? `.${tool.name}` : `[${JSON.stringify(tool.name)}]`}(input)`

const describeOne = (tool: ToolRow) =>
  [
    tool.path,
    ...(tool.description ? [tool.description.trim()] : []),
    `call: const r = ${callOf(tool)}`,
    `input: ${JSON.stringify(tool.inputSchema ?? { type: "object" })}`,
    tool.outputSchema === null || tool.outputSchema === undefined
      ? "r.data: no declared schema (a parsed JSON value, a string, or the content blocks)"
      : `r.data: ${JSON.stringify(tool.outputSchema)}`,
  ].join("\n")

export const describeText = (tools: readonly ToolRow[]): string => tools.map(describeOne).join("\n\n")
