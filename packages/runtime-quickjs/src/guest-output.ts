/**
 * What a script sends out besides tool calls: `console` lines into the run's log, and content blocks it `emit`s
 * (JSON copies, in order, within maxResultBytes). A line that cannot be kept, or a block past the limit, is never
 * copied out of the guest.
 */
import type { ContentBlock } from "@switchboard/core"
import type { QuickJSContext } from "quickjs-emscripten-core"
import { readBounded, stringLength } from "./bounded-text.js"
import type { TextBuiltins } from "./bounded-text.js"
import type { BridgeState } from "./bridge-state.js"
import { failRun } from "./bridge-state.js"
import { emitFunctionName, logFunctionName, logLevels } from "./prelude/protocol.js"
import type { LogLevel } from "./prelude/protocol.js"
import { runErrors } from "./run-errors.js"
import { utf8Length } from "./utf8-length.js"

const blockShape =
  'an MCP content block, an object with a string "type" (such as { type: "image", data: "<base64>", mimeType: "image/png" })'

const isLogLevel = (level: string): level is LogLevel => (logLevels as readonly string[]).includes(level)

const isContentBlock = (value: unknown): value is ContentBlock =>
  typeof value === "object" &&
  value !== null &&
  !Array.isArray(value) &&
  typeof (value as { type?: unknown }).type === "string"

const summarizeValue = (value: unknown): string => {
  if (value === null) return "null"
  if (Array.isArray(value)) return "an array"
  if (typeof value === "object") return 'an object without a string "type"'
  return `a ${typeof value}`
}

export const guestOutput = (ctx: QuickJSContext, text: TextBuiltins, state: BridgeState) => {
  let emitted: ContentBlock[] = []
  let emittedBytes = 0

  const log = ctx.newFunction(logFunctionName, (levelHandle, textHandle) => {
    const logs = state.run?.logs
    if (!logs) return undefined
    const level = levelHandle ? ctx.getString(levelHandle) : "log"
    // a line that cannot be kept is never copied out: a script logging huge strings costs the host nothing
    const units = textHandle && ctx.typeof(textHandle) === "string" ? stringLength(ctx, textHandle) : 0
    if (!logs.fits(units)) logs.drop(units)
    else logs.push(isLogLevel(level) ? level : "log", textHandle ? ctx.getString(textHandle) : "")
    return undefined
  })

  const emit = ctx.newFunction(emitFunctionName, (jsonHandle, reasonHandle) => {
    const current = state.run
    if (!current || state.over) return undefined
    if (!jsonHandle || ctx.typeof(jsonHandle) !== "string") {
      const reason =
        reasonHandle && ctx.typeof(reasonHandle) === "string"
          ? readBounded(ctx, text, reasonHandle).text
          : "got undefined"
      return ctx.newString(
        `emit(block) takes ${blockShape}: ${reason.startsWith("got ") ? reason : `it is not JSON-serializable: ${reason}`}`,
      )
    }
    const { maxResultBytes } = current.limits
    // the length in UTF-16 units is a lower bound of the UTF-8 size: a block past the limit is never copied out
    const units = stringLength(ctx, jsonHandle)
    if (emittedBytes + units > maxResultBytes)
      return void failRun(state, current, runErrors.emittedTooLarge(current.limits, emittedBytes + units, false))
    const json = ctx.getString(jsonHandle)
    const block: unknown = JSON.parse(json)
    if (!isContentBlock(block)) return ctx.newString(`emit(block) takes ${blockShape}: got ${summarizeValue(block)}`)
    const bytes = utf8Length(json)
    if (emittedBytes + bytes > maxResultBytes)
      return void failRun(state, current, runErrors.emittedTooLarge(current.limits, emittedBytes + bytes, true))
    emittedBytes += bytes
    emitted.push(block)
    return undefined
  })

  return {
    log,
    emit,
    /** the content blocks the script passed to `emit`, in order (JSON copies) */
    get emitted() {
      return emitted
    },
    reset() {
      emitted = []
      emittedBytes = 0
    },
  }
}
