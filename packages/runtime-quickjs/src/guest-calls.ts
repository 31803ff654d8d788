import type { QuickJSContext, QuickJSHandle } from "quickjs-emscripten-core"
import type { ErrorDescription } from "./prelude/protocol.js"

/**
 * Host-side calls into the prelude's helpers. They run guest code (a getter, a toJSON), so the caller
 * keeps an interrupt deadline in force while they run.
 */

/** What the script threw, read inside the guest; null when the thrown value is null. */
export const describeThrown = (
  ctx: QuickJSContext,
  internals: QuickJSHandle | undefined,
  thrown: QuickJSHandle,
): ErrorDescription | null => {
  if (ctx.typeof(thrown) === "object" && ctx.eq(thrown, ctx.null)) return null
  if (internals === undefined) return describeOnHost(ctx, thrown)
  const result = ctx.callMethod(internals, "describeError", [thrown])
  if (result.error) {
    // describing failed (out of memory, interrupted): what the failure was is the better answer
    const failure = result.error
    const nested = ctx.typeof(failure) === "object" && ctx.eq(failure, ctx.null) ? null : describeOnHost(ctx, failure)
    failure.dispose()
    return nested
  }
  const text = result.value.consume((handle) => (ctx.typeof(handle) === "string" ? ctx.getString(handle) : ""))
  try {
    return JSON.parse(text) as ErrorDescription
  } catch {
    return describeOnHost(ctx, thrown)
  }
}

/** Without the prelude's helper: reads an engine error's own name and message, anything else as its type. */
const describeOnHost = (ctx: QuickJSContext, thrown: QuickJSHandle): ErrorDescription => {
  const type = ctx.typeof(thrown)
  if (type === "string") return { isError: false, name: "string", message: ctx.getString(thrown) }
  if (type !== "object") return { isError: false, name: type, message: `a ${type}` }
  const read = (key: string) =>
    ctx.getProp(thrown, key).consume((handle) => (ctx.typeof(handle) === "string" ? ctx.getString(handle) : undefined))
  const message = read("message")
  if (message === undefined) return { isError: false, name: "object", message: "an object" }
  const stack = read("stack")
  return { isError: true, name: read("name") ?? "Error", message, ...(stack === undefined ? {} : { stack }) }
}

export type SerializedResult =
  | { kind: "json"; text: string }
  | { kind: "undefined" }
  /** longer than the limit: `units` UTF-16 code units, a lower bound of its UTF-8 size */
  | { kind: "too-long"; units: number }
  | { kind: "threw"; thrown: QuickJSHandle }

/** The result as JSON text made inside the guest (never context.dump, which is slow and lossy). */
export const serializeResult = (
  ctx: QuickJSContext,
  internals: QuickJSHandle,
  value: QuickJSHandle,
  maxBytes: number,
): SerializedResult => {
  const limit = ctx.newNumber(maxBytes)
  const result = ctx.callMethod(internals, "serializeResult", [value, limit])
  limit.dispose()
  if (result.error) return { kind: "threw", thrown: result.error }
  return result.value.consume((handle): SerializedResult => {
    const type = ctx.typeof(handle)
    if (type === "string") return { kind: "json", text: ctx.getString(handle) }
    if (type === "number") return { kind: "too-long", units: ctx.getNumber(handle) }
    return { kind: "undefined" }
  })
}
