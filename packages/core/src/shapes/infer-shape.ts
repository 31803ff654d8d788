/**
 * Infers the shape of one decoded `data` value. Bounded whatever the input: it enters at most `maxDepth`
 * levels of containers, reads at most `maxKeys + 1` keys of an object, samples at most `maxArrayItems` items
 * of an array, and inspects about `maxVisited` values in all (once that budget is spent, containers are
 * `unknown`, while the objects already entered still type their remaining scalar keys), so a 100 MB value
 * costs about what a 1 MB one does. The one cost that grows with the input is the engine listing one
 * object's own keys for `for...in`, which it does natively before the loop stops.
 */
import { capShapeSize } from "./cap-shape-size.js"
import { merge, objectOrRecord } from "./merge-shapes.js"
import {
  type CallerTag,
  type Shape,
  ShapeBounds,
  UNKNOWN,
  emptyFields,
  fieldEntries,
  fieldShape,
  scalarShape,
  setField,
} from "./shape.js"

interface Budget {
  left: number
  /** shared by every field of one inference; shapes are never mutated */
  by: string[] | undefined
}

/**
 * `caller`: whose result this is (`callerTag`); every key found is marked as held by it. A caller's array
 * (`callersOf`) may be passed instead, built once per execution, so that merging its results finds the same array.
 */
export const inferShape = (value: unknown, caller?: CallerTag | string[]): Shape => {
  try {
    const by = typeof caller === "string" ? [caller] : caller
    return capShapeSize(infer(value, 1, { left: ShapeBounds.maxVisited, by }))
  } catch {
    return UNKNOWN // a host object whose getter throws; decoded JSON never does
  }
}

const infer = (value: unknown, level: number, budget: Budget): Shape => {
  budget.left--
  switch (typeof value) {
    case "string":
      return scalarShape("string")
    case "number":
    case "bigint":
      return scalarShape("number")
    case "boolean":
      return scalarShape("boolean")
    case "object":
      if (value === null) return scalarShape("null")
      // Scalars are typed even past the budget (it costs nothing); a container past a bound is not entered.
      if (level > ShapeBounds.maxDepth || budget.left < 0) return UNKNOWN
      return Array.isArray(value) ? inferArray(value, level, budget) : inferObject(value, level, budget)
    default:
      return UNKNOWN // undefined, functions, symbols: not JSON
  }
}

/**
 * Samples up to `maxArrayItems` items spread evenly over the array (first and last included). One array may
 * spend at most half the budget left when it starts, so the fields after a huge array are still typed.
 */
const inferArray = (array: readonly unknown[], level: number, budget: Budget): Shape => {
  const length = array.length
  if (length === 0) return { kind: "array", items: null }
  const take = Math.min(length, ShapeBounds.maxArrayItems)
  const floor = budget.left - Math.floor(budget.left / 2)
  let items: Shape | null = null
  for (let i = 0; i < take; i++) {
    if (i > 0 && budget.left <= floor) break
    const index = take === length ? i : Math.floor((i * (length - 1)) / (take - 1))
    const item = infer(array[index], level + 1, budget)
    items = items ? merge(items, item) : item
  }
  return { kind: "array", items }
}

const inferObject = (object: object, level: number, budget: Budget): Shape => {
  const fields = emptyFields()
  let count = 0
  for (const key in object) {
    if (!Object.hasOwn(object, key)) continue
    count++
    if (count > ShapeBounds.maxKeys) break // one key past the bound is enough to know it is map-like
    const shape = infer((object as Record<string, unknown>)[key], level + 1, budget)
    setField(fields, key, fieldShape(shape, 1, budget.by))
  }
  if (count > ShapeBounds.maxKeys) {
    let values: Shape | null = null
    for (const [, field] of fieldEntries(fields)) values = values ? merge(values, field.shape) : field.shape
    return { kind: "record", values: values ?? UNKNOWN }
  }
  return objectOrRecord(fields, 1)
}
