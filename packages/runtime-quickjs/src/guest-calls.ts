import type { QuickJSContext, QuickJSHandle } from "quickjs-emscripten-core"
import { errorTextUnits, readBounded, renderBounded, stringLength } from "./bounded-text.js"
import type { BoundedText, TextBuiltins } from "./bounded-text.js"

/**
 * Host-side reads of guest values after the script settles. They can run guest code (a getter, a toJSON),
 * so the caller keeps an interrupt deadline in force while they run.
 */

/** How a thrown or rejected guest value looks to the host, each text read with the bound (bounded-text.ts). */
export interface ThrownValue {
  /** true for anything with a string `message` (an Error); false for a thrown string, object, number... */
  isError: boolean
  name: string
  message: string
  stack?: string
  /** set when the name or message was cut in the guest: how long the whole was, in UTF-16 units */
  cutFrom?: number
}

const isNull = (ctx: QuickJSContext, handle: QuickJSHandle) =>
  ctx.typeof(handle) === "object" && ctx.eq(handle, ctx.null)

/** Reads a string property with the bound; a getter that throws or a non-string counts as absent. */
const readString = (
  ctx: QuickJSContext,
  builtins: TextBuiltins,
  handle: QuickJSHandle,
  key: string,
): BoundedText | undefined =>
  ctx
    .getProp(handle, key)
    .consume((value) => (ctx.typeof(value) === "string" ? readBounded(ctx, builtins, value) : undefined))

const cutFrom = (...texts: (BoundedText | undefined)[]): { cutFrom?: number } => {
  const cut = texts.find((text) => text !== undefined && text.units > errorTextUnits)
  return cut ? { cutFrom: cut.units } : {}
}

/** What the script threw; null when the thrown value is null. */
export const readThrown = (
  ctx: QuickJSContext,
  stringify: QuickJSHandle,
  builtins: TextBuiltins,
  thrown: QuickJSHandle,
): ThrownValue | null => {
  if (isNull(ctx, thrown)) return null
  const type = ctx.typeof(thrown)
  if (type === "string") {
    const text = readBounded(ctx, builtins, thrown)
    return { isError: false, name: "string", message: text.text, ...cutFrom(text) }
  }
  if (type === "object") {
    const message = readString(ctx, builtins, thrown, "message")
    if (message !== undefined) {
      const name = readString(ctx, builtins, thrown, "name")
      // only the position is read from the stack, in its first frames
      const stack = readString(ctx, builtins, thrown, "stack")
      return {
        isError: true,
        name: name?.text ?? "Error",
        message: message.text,
        ...(stack === undefined ? {} : { stack: stack.text }),
        ...cutFrom(message, name),
      }
    }
  }
  const text = primitiveText(ctx, stringify, builtins, thrown, type)
  return { isError: false, name: type, message: text.text, ...cutFrom(text) }
}

const primitiveText = (
  ctx: QuickJSContext,
  stringify: QuickJSHandle,
  builtins: TextBuiltins,
  value: QuickJSHandle,
  type: string,
): BoundedText => {
  const whole = (text: string): BoundedText => ({ text, units: text.length })
  if (type === "undefined") return whole("undefined")
  if (type === "bigint" || type === "symbol") {
    const text = renderBounded(ctx, builtins, value)
    if (!text) return whole(`a value of type ${type}`)
    return type === "bigint" && text.units <= errorTextUnits ? whole(`${text.text}n`) : text
  }
  const json = ctx.callFunction(stringify, ctx.undefined, value)
  if (json.error) return json.error.consume(() => whole(`a value of type ${type}`))
  return json.value.consume((text) =>
    ctx.typeof(text) === "string" ? readBounded(ctx, builtins, text) : whole(`a value of type ${type}`),
  )
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
  maxUnits: number,
): SerializedResult => {
  const result = ctx.callFunction(stringify, ctx.undefined, value)
  if (result.error) return { kind: "threw", thrown: result.error }
  return result.value.consume((text): SerializedResult => {
    if (ctx.typeof(text) !== "string") return { kind: "undefined" }
    const units = stringLength(ctx, text)
    return units > maxUnits ? { kind: "too-long", units } : { kind: "json", text: ctx.getString(text) }
  })
}
