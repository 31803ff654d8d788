/** The floors each figure is divided by, measured in the same process as the figures. */
import { loadQuickJsModule } from "@switchboard/runtime-quickjs"
import type { QuickJSWASMModule } from "quickjs-emscripten-core"
import { createClient, startBareServer } from "./http-client.js"
import { timeUs } from "./measure.js"

/** A bare QuickJS lifecycle: new runtime + context, eval(1+1), dispose. */
export const bareLifecycleUs = (module: QuickJSWASMModule) =>
  timeUs(3000, () => {
    const runtime = module.newRuntime()
    const context = runtime.newContext()
    context.unwrapResult(context.evalCode("1+1")).dispose()
    context.dispose()
    runtime.dispose()
  })

/** A bare loopback HTTP POST round trip on a kept-alive connection. */
export const bareHttpUs = async () => {
  const server = await startBareServer()
  const client = createClient(server.url)
  const us = await timeUs(2000, () => client.post("/", '{"code":"return 1+1"}'))
  client.close()
  await server.close()
  return us
}

/** One awaited guest-to-host promise call in bare QuickJS (newPromise, resolved by the host, then pending jobs). */
export const bareAsyncCallUs = async (module: QuickJSWASMModule, calls = 1000) => {
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
  const us = await timeUs(30, async () => {
    const promise = context.unwrapResult(context.evalCode(`(async () => { let s = 0; for (let i = 0; i < ${calls}; i++) s = await af(i); return s })()`))
    runtime.executePendingJobs()
    context.unwrapResult(await context.resolvePromise(promise)).dispose()
    promise.dispose()
  }, 3)
  context.dispose()
  runtime.dispose()
  return us / calls
}

export const loadBareModule = () => loadQuickJsModule()
