/** The public face of ./render-schema.ts: one schema to a type expression plus the aliases it needs. */
import { renderSchema } from "./render-schema.js"
import { type TypeScope, createTypeScope, declarationsFor } from "./type-scope.js"

export interface JsonSchemaToTypeScriptOptions {
  /** the alias the schema's root will be declared under; `$ref: "#"` renders as it (without one, as `unknown`) */
  rootName?: string
  /** put before every alias made from `$defs`/`definitions`, e.g. `Everything_` */
  namePrefix?: string
  /** share one scope across several schemas so an identical definition is declared once */
  scope?: TypeScope
}

export interface JsonSchemaTypeScript {
  /** the type expression for the schema itself */
  type: string
  /** `type X = ...` declarations for the definitions it refers to, transitively; each is standalone text */
  declarations: string[]
}

export const jsonSchemaToTypeScript = (
  schema: unknown,
  options: JsonSchemaToTypeScriptOptions = {},
): JsonSchemaTypeScript => {
  const scope = options.scope ?? createTypeScope()
  const { type, uses } = renderSchema(schema, { ...options, scope })
  return { type: type.text, declarations: declarationsFor(scope, uses) }
}
