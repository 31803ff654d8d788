/**
 * Keeps a shape within `maxShapeNodes`. Per-node bounds (depth, keys, union members) still allow a shape that
 * grows wide at every level, so this is the bound on the whole: the shallowest nodes are kept, breadth first,
 * and containers past the budget become `unknown`. A union is kept or dropped whole, so no union ever holds
 * an `unknown` member.
 */
import {
  type ArrayShape,
  type ObjectShape,
  type RecordShape,
  type Shape,
  ShapeBounds,
  UNKNOWN,
  emptyFields,
  fieldEntries,
  setField,
  withCallers,
} from "./shape.js"

/** Counts nodes, stopping once the count passes `limit`. */
export const countShapeNodes = (shape: Shape, limit: number): number => {
  let count = 0
  const stack: Shape[] = [shape]
  while (stack.length > 0 && count <= limit) {
    const node = stack.pop() as Shape
    count++
    if (node.kind === "array" && node.items) stack.push(node.items)
    else if (node.kind === "record") stack.push(node.values)
    else if (node.kind === "union") stack.push(...node.members)
    else if (node.kind === "object") for (const [, field] of fieldEntries(node.fields)) stack.push(field.shape)
  }
  return count
}

interface Task {
  source: Shape
  assign: (shape: Shape) => void
}

export const capShapeSize = (shape: Shape, maxNodes: number = ShapeBounds.maxShapeNodes): Shape => {
  if (countShapeNodes(shape, maxNodes) <= maxNodes) return shape
  let root: Shape = UNKNOWN
  const queue: Task[] = [{ source: shape, assign: (s) => (root = s) }]
  // Copies one node and queues its children. Scalars are leaves and are shared as they are.
  const shell = (source: Shape): Shape => {
    switch (source.kind) {
      case "array": {
        const out: ArrayShape = { kind: "array", items: null }
        if (source.items) queue.push({ source: source.items, assign: (s) => (out.items = s) })
        return out
      }
      case "record": {
        const out: RecordShape = { kind: "record", values: UNKNOWN }
        queue.push({ source: source.values, assign: (s) => (out.values = s) })
        return out
      }
      case "object": {
        const out: ObjectShape = {
          kind: "object",
          samples: source.samples,
          fields: emptyFields(),
          ...(source.rare ? { rare: source.rare } : {}),
        }
        for (const [key, field] of fieldEntries(source.fields)) {
          setField(out.fields, key, withCallers(field, UNKNOWN, field.seen))
          queue.push({
            source: field.shape,
            assign: (s) => setField(out.fields, key, withCallers(field, s, field.seen)),
          })
        }
        return out
      }
      default:
        return source
    }
  }
  // Every queued node is already paid for; a container pays for its children before they are queued, so the
  // `unknown`s left where the budget ran out are counted too. A union pays for its members and theirs at once.
  let budget = maxNodes - 1
  for (let i = 0; i < queue.length; i++) {
    const { source, assign } = queue[i] as Task
    const cost =
      source.kind === "union" ? source.members.reduce((sum, m) => sum + 1 + childCount(m), 0) : childCount(source)
    if (cost > budget) {
      assign(UNKNOWN)
      continue
    }
    budget -= cost
    assign(source.kind === "union" ? { kind: "union", members: source.members.map(shell) } : shell(source))
  }
  return root
}

const childCount = (shape: Shape): number => {
  switch (shape.kind) {
    case "array":
      return shape.items ? 1 : 0
    case "record":
      return 1
    case "object":
      return Object.keys(shape.fields).length
    default:
      return 0
  }
}
