/**
 * Describe (ARCHITECTURE.md: shapes and describe): TypeScript a model can paste above its script. The input type comes from the input
 * schema; `Data` in `Promise<ToolResult<Data>>` comes from the declared output schema, else the shape observed
 * under the tool's current encoding (with its provenance), else `unknown` (never called). Never an MCP
 * envelope: `data` is what the result contract delivers.
 */
import type { CatalogStore, StoredShape, ToolRow } from "../catalog/rows.js"
import { declaresData } from "../encodings/encoding.js"
import { normalizeShape } from "../shapes/normalize-shape.js"
import { shapeToTypeScript } from "../shapes/shape-to-typescript.js"
import { docComment, propertyKey } from "../shapes/ts-syntax.js"
import { isRecord, own } from "../is-record.js"
import { renderDeclaredData } from "./declared-data.js"
import { renderSchema } from "./render-schema.js"
import type { RenderSchemaOptions } from "./render-schema.js"
import { TOOL_RESULT_DECLARATION } from "./tool-result-declaration.js"
import { type TypeScope, createTypeScope, declarationsFor, pascalCase, uniqueName } from "./type-scope.js"
import type { EffectivePolicy } from "../policy/policy.js"

export interface DescribeToolInput {
  tool: ToolRow
  /**
   * The shape stored under the tool's CURRENT effective encoding, or null: look it up with
   * `store.getShape(tool.id, tool.encoding)` (or `loadObservedShape`). A shape learned
   * under another encoding describes another contract and must not be passed.
   */
  shape: StoredShape | null
  /** the policy a call of the tool falls under, shown when it is not `allow` (policy/policy.ts) */
  policy?: Pick<EffectivePolicy, "action" | "reason">
  /** declare only these fields of the declared data, each in full (dotted paths; ./data-views.ts) */
  fields?: readonly string[]
}

export type OutputSource = "declared" | "observed" | "unknown"

export interface ToolDescription {
  path: string
  /** self-contained: the shared declarations, the tool's input and data types, and `declare const tools` */
  typescript: string
  /** the shared declarations this tool needs (ToolResult first, then `$defs` aliases), for a caller that dedupes */
  declarations: string[]
  outputSource: OutputSource
}

/** The observed shape describe may serve for `tool`: the one under its current effective encoding. */
export const loadObservedShape = (store: Pick<CatalogStore, "getShape">, tool: ToolRow): Promise<StoredShape | null> =>
  store.getShape(tool.id, tool.encoding)

export const describeTool = (input: DescribeToolInput): ToolDescription => {
  const scope = createTypeScope()
  const rendered = renderTool(input, scope)
  const declarations = [TOOL_RESULT_DECLARATION, ...declarationsFor(scope, rendered.uses)]
  const typescript = [...declarations, rendered.block, toolsDeclaration([rendered])].join("\n\n")
  return { path: input.tool.path, typescript, declarations, outputSource: rendered.outputSource }
}

/** Several tools in one block: ToolResult and shared definitions once, one `declare const tools`. */
export const describeTools = (inputs: readonly DescribeToolInput[]): string => {
  const scope = createTypeScope()
  const seen = new Set<string>()
  const rendered: RenderedTool[] = []
  for (const input of inputs) {
    if (seen.has(input.tool.path)) continue
    seen.add(input.tool.path)
    rendered.push(renderTool(input, scope))
  }
  const uses = rendered.flatMap((r) => [...r.uses])
  return [
    TOOL_RESULT_DECLARATION,
    ...declarationsFor(scope, uses),
    ...rendered.map((r) => r.block),
    toolsDeclaration(rendered),
  ].join("\n\n")
}

interface RenderedTool {
  namespace: string
  method: string
  block: string
  uses: Set<string>
  outputSource: OutputSource
}

/** What the model must know before it writes the call: it will not run, or it waits for a person. */
export const policyNote = (policy: Pick<EffectivePolicy, "action" | "reason"> | undefined): string | null => {
  if (!policy || policy.action === "allow") return null
  return policy.action === "block"
    ? `blocked by policy (${policy.reason}): a call resolves to { ok: false, error: { code: "blocked" } } and never runs`
    : `needs a person's approval before it runs (${policy.reason}): the run pauses at the call until someone decides; ` +
        `a decline resolves to { ok: false, error: { code: "declined" } }`
}

const renderTool = ({ tool, shape, policy, fields }: DescribeToolInput, scope: TypeScope): RenderedTool => {
  const namespacePart = pascalCase(tool.namespace) || "Tool"
  const base = `${namespacePart}_${pascalCase(tool.name) || "Tool"}`
  const inputName = uniqueName(scope, `${base}_Input`)
  const dataName = uniqueName(scope, `${base}_Data`)
  const namePrefix = `${namespacePart}_`
  const uses = new Set<string>()

  const input = renderSchema(tool.inputSchema, { scope, rootName: inputName, namePrefix })
  for (const name of input.uses) uses.add(name)
  // Arguments are always an object; a schema we cannot render still takes one.
  const inputType = input.type.text === "unknown" ? "Record<string, unknown>" : input.type.text

  const data = renderData(tool, shape, { scope, rootName: dataName, namePrefix }, fields)
  for (const name of data.uses) uses.add(name)
  // asking for some of a tool's fields follows a first answer, which gave its description
  const inputDoc = tool.description && !data.picked ? docComment(tool.description, "") : ""

  const argsOptional = !hasRequiredArguments(tool.inputSchema) || /^Record<string, (unknown|never)>$/.test(inputType)
  const note = policyNote(policy)
  const doc = note ? `/** ${note.replaceAll("*/", "* /")} */\n    ` : ""
  const method = `${doc}${propertyKey(tool.name)}(args${argsOptional ? "?" : ""}: ${inputName}): Promise<ToolResult<${dataName}>>`
  const block = `${inputDoc}type ${inputName} = ${inputType}\n\n${docComment(data.comment, "")}type ${dataName} = ${data.type}`
  return { namespace: tool.namespace, method, block, uses, outputSource: data.source }
}

/**
 * The data's type: declared by the tool's output schema (whole, or to fewer levels when it is long, or the fields
 * asked for: ./declared-data.ts), else observed, else unknown; named by `names.rootName`.
 */
const renderData = (
  tool: ToolRow,
  stored: StoredShape | null,
  names: RenderSchemaOptions,
  fields: readonly string[] | undefined,
) => {
  // a declared schema types decoded data; a row not yet stamped hands scripts the raw envelope
  if (isRecord(tool.outputSchema) && declaresData(tool)) {
    const { rendered: output, note, picked } = renderDeclaredData(tool.outputSchema, names, fields)
    if (output.type.text !== "unknown") {
      const description = own(tool.outputSchema, "description")
      const declared = `declared by the tool's output schema${note ?? ""}`
      const comment =
        typeof description === "string" && description.trim() ? `${description.trim()}\n\n${declared}` : declared
      return { type: output.type.text, uses: output.uses, comment, source: "declared" as const, picked }
    }
  }
  if (stored && stored.sampleCount > 0) {
    return {
      type: shapeToTypeScript(normalizeShape(stored.shape)),
      uses: new Set<string>(),
      comment: provenance(stored),
      source: "observed" as const,
      picked: false,
    }
  }
  return {
    type: "unknown",
    uses: new Set<string>(),
    comment: "never called yet: the shape of data is unknown",
    source: "unknown" as const,
    picked: false,
  }
}

const hasRequiredArguments = (schema: unknown): boolean => {
  if (!isRecord(schema)) return false
  const required = own(schema, "required")
  return Array.isArray(required) && required.some((r) => typeof r === "string")
}

const day = (ms: number): string | null => {
  const date = new Date(ms)
  return Number.isNaN(date.getTime()) ? null : date.toISOString().slice(0, 10)
}

/** `observed in 37 calls, 2026-11-02 to 2026-11-29` (UTC dates). */
export const provenance = (stored: Pick<StoredShape, "sampleCount" | "firstSeenAt" | "lastSeenAt">): string => {
  const calls = `observed in ${stored.sampleCount} ${stored.sampleCount === 1 ? "call" : "calls"}`
  const first = day(stored.firstSeenAt)
  const last = day(stored.lastSeenAt)
  if (!first || !last) return calls
  return first === last ? `${calls} on ${first}` : `${calls}, ${first} to ${last}`
}

const toolsDeclaration = (tools: readonly RenderedTool[]): string => {
  const byNamespace = new Map<string, string[]>()
  for (const tool of tools) {
    const methods = byNamespace.get(tool.namespace) ?? []
    methods.push(tool.method)
    byNamespace.set(tool.namespace, methods)
  }
  const namespaces = [...byNamespace].map(
    ([namespace, methods]) => `  ${propertyKey(namespace)}: {\n${methods.map((m) => `    ${m}`).join("\n")}\n  }`,
  )
  return namespaces.length === 0 ? "declare const tools: {}" : `declare const tools: {\n${namespaces.join("\n")}\n}`
}
