/** The one test for "a JSON object" (not null, not an array), and safe reads of its own keys. */

export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

/** An own property only: a key named `constructor` or `__proto__` must not reach Object.prototype. */
export const own = (object: Record<string, unknown>, key: string): unknown =>
  Object.hasOwn(object, key) ? object[key] : undefined
