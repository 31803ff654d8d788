import type { QuickJSContext, QuickJSHandle } from "quickjs-emscripten-core"

/**
 * Host-side reads of guest values after the script settles. They can run guest code (a getter, a toJSON),
 * so the caller keeps an interrupt deadline in force while they run.
 */

/** How a thrown or rejected guest value looks to the host. */
export interface ErrorDescription {
  /** true for anything with a string `message` (an Error); false for a thrown string, object, number... */
  isError: boolean
  name: string
  message: string
  stack?: string
}

/**
 * The length of a guest string in UTF-16 code units, read without copying the string out. (getLength is
 * no help here: it answers undefined for many strings, such as ones built by concatenation.)
 */
export const stringLength = (ctx: QuickJSContext, text: QuickJSHandle): number =>
  ctx.getProp(text, "length").consume((length) => (ctx.typeof(length) === "number" ? ctx.getNumber(length) : 0))

const isNull = (ctx: QuickJSContext, handle: QuickJSHandle) => ctx.typeof(handle) === "object" && ctx.eq(handle, ctx.null)

/** Reads a string property; a getter that throws or a non-string counts as absent. */
const readString = (ctx: QuickJSContext, handle: QuickJSHandle, key: string): string | undefined =>
  ctx.getProp(handle, key).consume((value) => (ctx.typeof(value) === "string" ? ctx.getString(value) : undefined))

/** What the script threw; null when the thrown value is null. */
export const describeThrown = (
  ctx: QuickJSContext,
  stringify: QuickJSHandle,
  thrown: QuickJSHandle,
): ErrorDescription | null => {
  if (isNull(ctx, thrown)) return null
  const type = ctx.typeof(thrown)
  if (type === "string") return { isError: false, name: "string", message: ctx.getString(thrown) }
  if (type === "object") {
    const message = readString(ctx, thrown, "message")
    if (message !== undefined) {
      const stack = readString(ctx, thrown, "stack")
      return { isError: true, name: readString(ctx, thrown, "name") ?? "Error", message, ...(stack === undefined ? {} : { stack }) }
    }
  }
  return { isError: false, name: type, message: primitiveText(ctx, stringify, thrown, type) }
}

const primitiveText = (ctx: QuickJSContext, stringify: QuickJSHandle, value: QuickJSHandle, type: string): string => {
  if (type === "undefined") return "undefined"
  if (type === "bigint") return `${ctx.getBigInt(value)}n`
  if (type === "symbol") return String(ctx.getSymbol(value))
  const json = callStringify(ctx, stringify, value)
  return json.kind === "json" ? json.text : `a value of type ${type}`
}

export type SerializedResult =
  | { kind: "json"; text: string }
  | { kind: "undefined" }
  /** longer than the limit: `units` UTF-16 code units, a lower bound of its UTF-8 size */
  | { kind: "too-long"; units: number }
  | { kind: "not-json"; reason: string }
  | { kind: "threw"; thrown: QuickJSHandle }

/**
 * The result as JSON text made inside the guest by the JSON.stringify captured before the script ran
 * (never context.dump, which is slow and lossy). The text's length is read before it is copied out:
 * a UTF-8 size is never below the UTF-16 length, so a text that is too long never leaves the guest.
 */
export const serializeResult = (
  ctx: QuickJSContext,
  stringify: QuickJSHandle,
  value: QuickJSHandle,
  maxBytes: number,
): SerializedResult => {
  const type = ctx.typeof(value)
  if (type === "function" || type === "symbol") return { kind: "not-json", reason: `a ${type} is not JSON` }
  return callStringify(ctx, stringify, value, maxBytes)
}

const callStringify = (
  ctx: QuickJSContext,
  stringify: QuickJSHandle,
  value: QuickJSHandle,
  maxUnits = Number.POSITIVE_INFINITY,
): SerializedResult => {
  const result = ctx.callFunction(stringify, ctx.undefined, value)
  if (result.error) return { kind: "threw", thrown: result.error }
  return result.value.consume((text): SerializedResult => {
    if (ctx.typeof(text) !== "string") return { kind: "undefined" }
    const units = stringLength(ctx, text)
    return units > maxUnits ? { kind: "too-long", units } : { kind: "json", text: ctx.getString(text) }
  })
}
