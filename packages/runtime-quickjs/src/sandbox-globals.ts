import type { QuickJSContext, QuickJSHandle } from "quickjs-emscripten-core"
import type { HostFunctions } from "./host-bridge.js"
import { consoleSource, emitSource, toolsSource } from "../dist/prelude.js"
import { sandboxGlobals } from "./prelude/protocol.js"
import type { SandboxGlobal } from "./prelude/protocol.js"

/** The context's own functions, taken before any script ran: a script that replaces them changes nothing here. */
export interface CapturedBuiltins {
  readonly stringify: QuickJSHandle
  readonly parse: QuickJSHandle
  readonly defineProperty: QuickJSHandle
}

export interface SandboxGlobals {
  /** Frees the globals' values the host keeps. Call before disposing the context. */
  close(): void
  /** Forgets the values made, freeing nothing: the context's memory was put back as it was before they were made. */
  reset(): void
}

/**
 * Defines `tools`, `console` and `emit` on a fresh context's global object as accessors. The first read of
 * one compiles the piece of the prelude that makes it (prelude/tools.ts, console.ts, emit.ts), calls it with
 * its host functions, and replaces the accessor with a plain data property holding the value, as if the
 * script had found it there; a write first replaces it the same way. Compiling the whole prelude was about
 * 100 µs of the 250 µs a sandbox cost to make, most of it for globals a given script never reads (a
 * compile that fails, out of memory or past the deadline, is thrown at the read, in the script).
 */
export const installSandboxGlobals = (
  ctx: QuickJSContext,
  host: HostFunctions,
  builtins: CapturedBuiltins,
): SandboxGlobals => {
  const pieces: Record<SandboxGlobal, { source: string; args: QuickJSHandle[] }> = {
    tools: { source: toolsSource, args: [host.invoke, builtins.stringify, builtins.parse] },
    console: { source: consoleSource, args: [host.log, host.loadFormat, builtins.stringify] },
    emit: { source: emitSource, args: [host.emit, builtins.stringify] },
  }
  /** each global's value once made: a getter the script kept and calls again gives the same object */
  const made = new Map<SandboxGlobal, QuickJSHandle>()

  /** Makes `name` a plain data property holding `value`; a failure (out of memory) is returned, to throw in the guest. */
  const defineData = (name: SandboxGlobal, value: QuickJSHandle) => {
    const descriptor = ctx.newObject()
    ctx.setProp(descriptor, "value", value)
    for (const flag of ["writable", "enumerable", "configurable"]) ctx.setProp(descriptor, flag, ctx.true)
    const defined = ctx
      .newString(name)
      .consume((key) => ctx.callFunction(builtins.defineProperty, ctx.undefined, ctx.global, key, descriptor))
    descriptor.dispose()
    if (defined.error) return defined
    defined.value.dispose()
    return undefined
  }

  const make = (name: SandboxGlobal) => {
    const known = made.get(name)
    if (known) return known.dup()
    const { source, args } = pieces[name]
    const evaluated = ctx.evalCode(source, `${name}.js`, { type: "global", strict: true })
    if (evaluated.error) return evaluated
    const value = evaluated.value.consume((piece) => ctx.callFunction(piece, ctx.undefined, ...args))
    if (value.error) return value
    made.set(name, value.value)
    // the callback's return value is disposed by quickjs-emscripten: hand it a reference of its own
    return defineData(name, value.value) ?? value.value.dup()
  }

  for (const name of sandboxGlobals) {
    // defineProp makes the accessors with newFunction, which also takes a failure and throws it in the guest;
    // its descriptor type admits neither
    ctx.defineProp(ctx.global, name, {
      configurable: true,
      enumerable: true,
      get: () => make(name) as QuickJSHandle,
      set: ((value: QuickJSHandle) => defineData(name, value)) as (value: QuickJSHandle) => void,
    })
  }

  return {
    reset() {
      made.clear()
    },
    close() {
      for (const value of made.values()) if (value.alive) value.dispose()
      made.clear()
    },
  }
}
