import type { QuickJSContext, QuickJSHandle } from "quickjs-emscripten-core"

/**
 * Guest strings read with a bound: past it only a prefix leaves QuickJS, cut inside the guest. A script that
 * throws a 40 MB message costs the host a few kilobytes, never a copy of the 40 MB that it would
 * then cut, in the worker, in the message to the main thread, in the response and in the stored execution.
 */

/**
 * The most of a thrown value's text the host reads: an error's message, name and stack, a thrown string, the
 * JSON of a thrown object. A fixed bound, not maxResultBytes: an error comes back whole in the response, where
 * a model reads it, and is never paged as a result's text is. 16,384 UTF-16 units are at most 48 KiB of UTF-8.
 */
export const errorTextUnits = 16_384

/** The context's own functions the bounded reads call, taken before any script ran (sandbox.ts). */
export interface TextBuiltins {
  /** String.prototype.slice */
  readonly slice: QuickJSHandle
  /** String, for the text of a symbol or a BigInt */
  readonly string: QuickJSHandle
}

/** `text` is at most the bound; `units` is the whole string's length in UTF-16 code units. */
export interface BoundedText {
  text: string
  units: number
}

/**
 * The length of a guest string in UTF-16 code units, read without copying the string out. (getLength is
 * no help here: it answers undefined for many strings, such as ones built by concatenation.)
 */
export const stringLength = (ctx: QuickJSContext, text: QuickJSHandle): number =>
  ctx.getProp(text, "length").consume((length) => (ctx.typeof(length) === "number" ? ctx.getNumber(length) : 0))

/** Reads a guest string, copying out at most `maxUnits` of it (its first ones). */
export const readBounded = (
  ctx: QuickJSContext,
  builtins: TextBuiltins,
  text: QuickJSHandle,
  maxUnits = errorTextUnits,
): BoundedText => {
  const units = stringLength(ctx, text)
  if (units <= maxUnits) return { text: ctx.getString(text), units }
  const cut = ctx
    .newNumber(0)
    .consume((start) => ctx.newNumber(maxUnits).consume((end) => ctx.callFunction(builtins.slice, text, start, end)))
  // slicing can only fail for want of memory: then nothing of it is read
  if (cut.error) return cut.error.consume(() => ({ text: "", units }))
  return cut.value.consume((prefix) => ({
    text: ctx.typeof(prefix) === "string" ? wholeCharacters(ctx.getString(prefix)) : "",
    units,
  }))
}

/** A prefix cut between the two halves of a surrogate pair loses the first half too. */
const wholeCharacters = (prefix: string): string => {
  const last = prefix.charCodeAt(prefix.length - 1)
  return last >= 0xd800 && last <= 0xdbff ? prefix.slice(0, -1) : prefix
}

/** `String(value)` made in the guest (a symbol's description, a BigInt's digits), read with the bound. */
export const renderBounded = (
  ctx: QuickJSContext,
  builtins: TextBuiltins,
  value: QuickJSHandle,
): BoundedText | undefined => {
  const rendered = ctx.callFunction(builtins.string, ctx.undefined, value)
  if (rendered.error) return rendered.error.consume(() => undefined)
  return rendered.value.consume((text) =>
    ctx.typeof(text) === "string" ? readBounded(ctx, builtins, text) : undefined,
  )
}

/** Cuts a text at the bound, saying so and how long the whole was (`units`, when a part was cut in the guest). */
export const boundText = (text: string, units?: number): string =>
  units === undefined && text.length <= errorTextUnits
    ? text
    : `${wholeCharacters(text.slice(0, errorTextUnits))} … [switchboard: cut at ${errorTextUnits} of its ${units ?? text.length} characters]`
