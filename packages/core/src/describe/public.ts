/** TypeScript for tools, from declared schemas or observed shapes, and the describe service. */
export { DEFAULT_DESCRIBE_LIMIT } from "../describe-bounds.js"
export { createDescribeService } from "./describe-service.js"
export type { DescribeResult } from "./describe-service.js"
export { inferShape } from "../shapes/infer-shape.js"
export { mergeStoredShapes } from "../shapes/normalize-shape.js"
