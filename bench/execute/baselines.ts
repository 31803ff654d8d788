/** The floors each figure is divided by, as tasks the bench times interleaved with the figures themselves. */
import { loadQuickJsModule } from "@switchboard/runtime-quickjs"
import type { QuickJSWASMModule } from "quickjs-emscripten-core"
import { createClient, startBareServer } from "./http-client.js"

/** A bare QuickJS lifecycle: new runtime + context, eval(1+1), dispose. */
export const bareLifecycle = (module: QuickJSWASMModule) => () => {
  const runtime = module.newRuntime()
  const context = runtime.newContext()
  context.unwrapResult(context.evalCode("1+1")).dispose()
  context.dispose()
  runtime.dispose()
}

/** A bare loopback HTTP POST round trip on a kept-alive connection, to a server answering a constant. */
export const openBareHttp = async () => {
  const server = await startBareServer()
  const client = createClient(server.url)
  return {
    roundTrip: () => client.post("/", '{"code":"return 1+1"}'),
    close: async () => {
      client.close()
      await server.close()
    },
  }
}

/**
 * `calls` awaited guest-to-host promise calls in bare QuickJS (newPromise, resolved by the host, then pending
 * jobs), in one warm context.
 */
export const openBareAsyncCalls = (module: QuickJSWASMModule, calls: number) => {
  const runtime = module.newRuntime()
  const context = runtime.newContext()
  context
    .newFunction("af", (handle) => {
      const value = context.getNumber(handle)
      const deferred = context.newPromise()
      void Promise.resolve().then(() => {
        context.newNumber(value + 1).consume((result) => deferred.resolve(result))
        runtime.executePendingJobs()
      })
      return deferred.handle
    })
    .consume((fn) => context.setProp(context.global, "af", fn))
  return {
    round: async () => {
      const promise = context.unwrapResult(
        context.evalCode(`(async () => { let s = 0; for (let i = 0; i < ${calls}; i++) s = await af(i); return s })()`),
      )
      runtime.executePendingJobs()
      context.unwrapResult(await context.resolvePromise(promise)).dispose()
      promise.dispose()
    },
    close: () => {
      context.dispose()
      runtime.dispose()
    },
  }
}

export const loadBareModule = () => loadQuickJsModule()
