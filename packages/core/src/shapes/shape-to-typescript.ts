/** Renders an observed shape as a TypeScript type a model can write against. */
import { type Shape, fieldEntries, isSharedField } from "./shape.js"
import { type TypeText, arrayOf, atom, indentOf, propertyKey, unionText } from "./ts-syntax.js"

export const shapeToTypeScript = (shape: Shape): string => render(shape, 0).text

const render = (shape: Shape, level: number): TypeText => {
  switch (shape.kind) {
    case "array":
      return arrayOf(shape.items ? render(shape.items, level) : atom("unknown"))
    case "record":
      return atom(`Record<string, ${render(shape.values, level).text}>`)
    case "union":
      return unionText(shape.members.map((member) => render(member, level)))
    case "object": {
      const all = fieldEntries(shape.fields)
      const entries = all.filter(([, field]) => isSharedField(field))
      // An object only ever seen empty, or whose keys only one caller's results held: nothing known about its keys.
      if (entries.length === 0) return atom("Record<string, unknown>")
      const pad = indentOf(level + 1)
      const lines = entries.map(([key, field]) => {
        const optional = field.seen < shape.samples ? "?" : ""
        return `${pad}${propertyKey(key)}${optional}: ${render(field.shape, level + 1).text}`
      })
      if (entries.length < all.length) lines.push(`${pad}[key: string]: unknown`)
      return atom(`{\n${lines.join("\n")}\n${indentOf(level)}}`)
    }
    default:
      return atom(shape.kind)
  }
}
