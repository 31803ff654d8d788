import type { QuickJSContext, QuickJSHandle } from "quickjs-emscripten-core"
import type { HostBridge, HostFunctions } from "./host-bridge.js"
import { consoleSource, dateSource, emitSource, toolsSource } from "../dist/prelude.js"
import { sandboxGlobals } from "./prelude/protocol.js"
import type { ReplacedGlobal, SandboxGlobal } from "./prelude/protocol.js"

/** The context's own functions, taken before any script ran: a script that replaces them changes nothing here. */
export interface CapturedBuiltins {
  readonly stringify: QuickJSHandle
  readonly parse: QuickJSHandle
  readonly defineProperty: QuickJSHandle
}

export interface SandboxGlobals {
  /**
   * Replaces the context's Date with the sandbox's own (prelude/date.ts), whose reads of the clock
   * a run with `RunOptions.determinism` replays and reports, made like `tools` on the first read. Call before
   * any script runs in the context (it takes the context's Date and Reflect's functions); later calls do nothing.
   */
  replaceDate(): void
  /**
   * Makes the sandbox's Date now, replacing the context's first if need be: for a sandbox put back by a snapshot,
   * so that its runs never pay for it. Call once, between runs. False when it failed (out of memory), which may
   * leave the context changed.
   */
  makeDate(): boolean
  /** Frees the globals' values the host keeps. Call before disposing the context. */
  close(): void
  /** Forgets the values made, freeing nothing: the context's memory was put back as it was before they were made. */
  reset(): void
}

type GlobalName = SandboxGlobal | ReplacedGlobal

type Finished = { error: QuickJSHandle; value?: undefined } | { error?: undefined; value: QuickJSHandle }

interface Piece {
  source: string
  args: QuickJSHandle[]
  /** turns what the piece returned into the global's value */
  finish?: (made: QuickJSHandle) => Finished
}

/**
 * Defines `tools`, `console` and `emit` on a fresh context's global object as accessors, and `Date` when
 * asked (replaceDate). The first read of one compiles the piece of the prelude that makes it
 * (prelude/tools.ts, console.ts, emit.ts, date.ts), calls it with its host functions, and replaces the accessor
 * with a plain data property holding the value, as if the script had found it there; a write first replaces
 * it the same way. Compiling the whole prelude would be a large part of what a sandbox costs to make, most of it
 * for globals a given script never reads (a compile that fails, out of memory or past the deadline, is
 * thrown at the read, in the script). `Date` is not enumerable, as the original is not.
 */
export const installSandboxGlobals = (
  ctx: QuickJSContext,
  host: HostFunctions,
  builtins: CapturedBuiltins,
  adoptDate: HostBridge["adoptDate"],
): SandboxGlobals => {
  const pieces: Partial<Record<GlobalName, Piece>> = {
    tools: { source: toolsSource, args: [host.invoke, builtins.stringify, builtins.parse] },
    console: { source: consoleSource, args: [host.log, host.loadFormat, builtins.stringify] },
    emit: { source: emitSource, args: [host.emit, builtins.stringify] },
  }
  /** the context functions Date's piece is given, taken when Date is replaced (before any script ran) */
  let dateBuiltins: QuickJSHandle[] | undefined
  const enumerable = (name: GlobalName) => name !== "Date"
  /** each global's value once made: a getter the script kept and calls again gives the same object */
  const made = new Map<GlobalName, QuickJSHandle>()

  /** Makes `name` a plain data property holding `value`; a failure (out of memory) is returned, to throw in the guest. */
  const defineData = (name: GlobalName, value: QuickJSHandle) => {
    // without a prototype: a script may have given Object.prototype a `get` or `set`, which a descriptor would inherit
    const descriptor = ctx.newObject(ctx.null)
    ctx.setProp(descriptor, "value", value)
    for (const flag of ["writable", "configurable"]) ctx.setProp(descriptor, flag, ctx.true)
    if (enumerable(name)) ctx.setProp(descriptor, "enumerable", ctx.true)
    const defined = ctx
      .newString(name)
      .consume((key) => ctx.callFunction(builtins.defineProperty, ctx.undefined, ctx.global, key, descriptor))
    descriptor.dispose()
    if (defined.error) return defined
    defined.value.dispose()
    return undefined
  }

  /** Compiles the piece that makes `name` and calls it. */
  const build = (name: GlobalName): Finished => {
    const { source, args, finish } = pieces[name]!
    const evaluated = ctx.evalCode(source, `${name.toLowerCase()}.js`, { type: "global", strict: true })
    if (evaluated.error) return evaluated
    const made = evaluated.value.consume((piece) => ctx.callFunction(piece, ctx.undefined, ...args))
    return made.error || !finish ? made : made.value.consume(finish)
  }

  const make = (name: GlobalName) => {
    const known = made.get(name)
    if (known) return known.dup()
    const value = build(name)
    if (value.error) return value
    made.set(name, value.value)
    // the callback's return value is disposed by quickjs-emscripten: hand it a reference of its own
    return defineData(name, value.value) ?? value.value.dup()
  }

  const defineAccessor = (name: GlobalName) => {
    // defineProp makes the accessors with newFunction, which also takes a failure and throws it in the guest;
    // its descriptor type admits neither
    ctx.defineProp(ctx.global, name, {
      configurable: true,
      enumerable: enumerable(name),
      get: () => make(name) as QuickJSHandle,
      set: ((value: QuickJSHandle) => defineData(name, value)) as (value: QuickJSHandle) => void,
    })
  }

  for (const name of sandboxGlobals) defineAccessor(name)

  /**
   * Date's piece (prelude/date.ts), given the context's Date, JSON, Reflect's functions and bind. It returns Date
   * and the two functions the bridge calls for a run's clock, which the bridge takes.
   */
  const datePiece = (): Piece => {
    const date = ctx.getProp(ctx.global, "Date")
    const [construct, apply] = ctx
      .getProp(ctx.global, "Reflect")
      .consume((reflect) => [ctx.getProp(reflect, "construct"), ctx.getProp(reflect, "apply")]) as [
      QuickJSHandle,
      QuickJSHandle,
    ]
    // Function.prototype.bind, reached through a function no script has touched
    const bind = ctx.getProp(apply, "bind")
    dateBuiltins = [date, construct, apply, bind]
    const finish = (made: QuickJSHandle): Finished => {
      const [value, configure, takeReads] = [0, 1, 2].map((index) => ctx.getProp(made, index)) as QuickJSHandle[]
      adoptDate(configure!, takeReads!)
      return { value: value! }
    }
    const { parse, stringify, defineProperty } = builtins
    return { source: dateSource, args: [parse, stringify, date, construct, apply, bind, defineProperty], finish }
  }

  return {
    replaceDate() {
      if (pieces.Date) return
      pieces.Date = datePiece()
      defineAccessor("Date")
    },
    makeDate() {
      pieces.Date ??= datePiece()
      const value = build("Date")
      if (value.error) return value.error.consume(() => false)
      const failed = value.value.consume((date) => defineData("Date", date))
      return failed ? failed.error.consume(() => false) : true
    },
    reset() {
      made.clear()
    },
    close() {
      for (const value of made.values()) if (value.alive) value.dispose()
      made.clear()
      for (const handle of dateBuiltins ?? []) if (handle.alive) handle.dispose()
    },
  }
}
