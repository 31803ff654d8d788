/**
 * The declared data type describe renders: the output schema whole when its TypeScript fits in
 * DATA_DECLARATION_CHARS, else to the most levels of fields that fit (at least one), or only the fields a request
 * names (./data-views.ts) when it declares any of them. The size is measured for the tool alone, so a tool reads the
 * same whatever is described beside it.
 */
import { DATA_DECLARATION_CHARS } from "../describe-bounds.js"
import { dataFields, dataToLevels } from "./data-views.js"
import { renderSchema } from "./render-schema.js"
import type { RenderSchemaOptions, RenderedSchema } from "./render-schema.js"
import { createTypeScope, declarationsFor } from "./type-scope.js"

/** Levels tried past the first: beyond them a view inlines more than the whole schema's shared aliases would. */
const MAX_LEVELS = 4

export interface DeclaredData {
  rendered: RenderedSchema
  /** what the doc comment adds after "declared by the tool's output schema", or null when it is the whole schema */
  note: string | null
  /** only fields a request named are declared */
  picked: boolean
}

const FIELDS_HINT = 'describe with "fields": ["a.b", ...] declares only those, in full'

const length = (schema: unknown, names: RenderSchemaOptions) => {
  const scope = createTypeScope()
  const { type, uses } = renderSchema(schema, { ...names, scope })
  return type.text.length + declarationsFor(scope, uses).reduce((sum, text) => sum + text.length + 2, 0)
}

const levelsNote = (levels: number) =>
  ` to ${levels} ${levels === 1 ? "level" : "levels"} of fields: a deeper object is a record naming its fields; ${FIELDS_HINT}`

/** `names.scope` receives the chosen view's aliases; the others are measured in scopes of their own. */
export const renderDeclaredData = (
  schema: unknown,
  names: RenderSchemaOptions,
  fields: readonly string[] | undefined,
): DeclaredData => {
  if (fields && fields.length > 0) {
    const view = dataFields(schema, fields)
    const missing = view.unmatched.length > 0 ? `; it declares no ${view.unmatched.join(", ")}` : ""
    if (view.unmatched.length < fields.length)
      return { rendered: renderSchema(view.schema, names), note: `: only the fields asked for${missing}`, picked: true }
    // none of them is this tool's: one request can name the fields of several tools
    const whole = renderWhole(schema, names)
    return { ...whole, note: `${whole.note ?? ""} (it declares none of the fields asked for)` }
  }
  return renderWhole(schema, names)
}

/** The whole schema when it fits, else the most levels that fit. */
const renderWhole = (schema: unknown, names: RenderSchemaOptions): DeclaredData => {
  if (length(schema, names) <= DATA_DECLARATION_CHARS)
    return { rendered: renderSchema(schema, names), note: null, picked: false }
  let chosen = { view: dataToLevels(schema, 1), levels: 1 }
  for (let levels = 2; levels <= MAX_LEVELS && chosen.view.cut; levels++) {
    const view = dataToLevels(schema, levels)
    if (length(view.schema, names) > DATA_DECLARATION_CHARS) break
    chosen = { view, levels }
  }
  return {
    rendered: renderSchema(chosen.view.schema, names),
    note: chosen.view.cut ? levelsNote(chosen.levels) : null,
    picked: false,
  }
}
