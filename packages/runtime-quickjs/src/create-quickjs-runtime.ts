import type { CodeRuntime, RunOptions, RunOutcome } from "@switchboard/core"
import type { QuickJSWASMModule } from "quickjs-emscripten-core"
import { loadQuickJsModule } from "./load-module.js"
import type { QuickJsModuleOptions } from "./load-module.js"
import { runErrors } from "./run-errors.js"
import { runScript } from "./run-script.js"

export interface QuickJsRuntimeOptions extends QuickJsModuleOptions {
  /** the module to start with; by default {@link loadQuickJsModule} loads one */
  module?: QuickJSWASMModule
  /** loads a replacement when a run poisons the current module; by default {@link loadQuickJsModule} */
  loadModule?: () => Promise<QuickJSWASMModule>
  /** the clock deadlines are read from (default `Date.now`); tests freeze it (see ScriptRunOptions.now) */
  now?: () => number
}

export interface QuickJsRuntime extends CodeRuntime {
  /** how many modules were thrown away because a run left them unusable (see ScriptRun.poisoned) */
  readonly replacedModules: number
}

/**
 * The in-thread runner: every run gets a fresh runtime and context in one shared module. Runs may overlap
 * (each waits on its own tool calls). CPU loops inside a single builtin are not interruptible here; a
 * worker pool that can terminate the thread is the hard bound.
 */
export const createQuickJsRuntime = async (options: QuickJsRuntimeOptions = {}): Promise<QuickJsRuntime> => {
  const load = options.loadModule ?? (() => loadQuickJsModule(options))
  let current = options.module ?? (await load())
  let next: Promise<QuickJSWASMModule> | undefined
  let replacedModules = 0
  const now = options.now

  const replace = (poisoned: QuickJSWASMModule) => {
    if (poisoned !== current || next) return
    replacedModules++
    next = load()
    next.then(
      (module) => {
        current = module
        next = undefined
      },
      () => {
        next = undefined
      },
    )
  }

  return {
    get replacedModules() {
      return replacedModules
    },
    async run(code: string, runOptions: RunOptions): Promise<RunOutcome> {
      let module: QuickJSWASMModule
      try {
        module = next ? await next : current
      } catch (cause) {
        return { ok: false, error: runErrors.internal(`could not load QuickJS: ${String(cause)}`), logs: [] }
      }
      const { outcome, poisoned } = await runScript(module, code, now ? { ...runOptions, now } : runOptions)
      if (poisoned) replace(module)
      return outcome
    },
  }
}
