/**
 * A value that crossed a thread as JSON text, parsed only when someone reads it: a result of hundreds of thousands
 * of keys takes the main thread about a second to rebuild, and most surfaces never read it (they answer its text).
 */

/** Defines `key` on `target` as the value `json` holds, parsed on the first read; a write replaces it. */
export const parseOnRead = <T extends object>(target: T, key: keyof T & string, json: string): T => {
  let parsed: { value: unknown } | undefined
  Object.defineProperty(target, key, {
    enumerable: true,
    configurable: true,
    get: () => (parsed ??= { value: JSON.parse(json) }).value,
    set: (value: unknown) =>
      Object.defineProperty(target, key, { value, enumerable: true, configurable: true, writable: true }),
  })
  return target
}
