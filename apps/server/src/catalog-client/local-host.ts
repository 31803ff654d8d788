/**
 * What the local catalog does through a host (./local-client.ts loads this only then): add, sync and remove a
 * source, through the sources service's Effects as the API runs them, and call a tool, as one execution. A command
 * that runs no script gets a runtime that refuses one instead of the worker pool, whose threads would load QuickJS
 * for nothing. Errors carry the API's codes (`errorCode`, the one place service errors get theirs).
 */
import { Cause, Effect, Exit, Option } from "effect"
import { errorCode } from "@switchboard/api"
import type { CodeRuntime, ProgressListener, ServiceError, SourceView } from "@switchboard/core"
import { RunErrorCodes } from "@switchboard/core"
import { createHost } from "../compose.js"
import type { CallResponse } from "./catalog-client.js"
import { CatalogClientError } from "./catalog-client.js"
import { callScript } from "./call-script.js"

const noScripts: CodeRuntime = {
  run: async () => ({
    ok: false,
    error: { code: RunErrorCodes.internal, message: "this command runs no script" },
    logs: [],
  }),
}

/** A service's Effect to a promise: its typed error as the API would answer it. */
const run = async <A>(effect: Effect.Effect<A, ServiceError>): Promise<A> => {
  const exit = await Effect.runPromiseExit(effect)
  if (Exit.isSuccess(exit)) return exit.value
  const error = Cause.findErrorOption(exit.cause)
  if (Option.isSome(error)) throw new CatalogClientError(errorCode(error.value), error.value.message)
  throw Cause.squash(exit.cause)
}

export const openLocalHost = async (db: string, { allowStdio, scripts }: { allowStdio: boolean; scripts: boolean }) => {
  const host = await createHost({
    db,
    allowStdio,
    // one call: one worker, as `run`
    ...(scripts ? { workers: 1 } : { runtime: noScripts }),
    // the command says what happened; the host's own lines (a sync's progress, each second) would repeat it
    logLevel: "warn",
  })
  return {
    addSource: (body: Record<string, unknown>, onProgress?: ProgressListener): Promise<SourceView> =>
      run(host.sources.add(body, { onProgress })),
    syncSource: (namespace: string, onProgress?: ProgressListener): Promise<SourceView> =>
      run(host.sources.sync(namespace, { onProgress })),
    removeSource: (namespace: string): Promise<void> => run(host.sources.remove(namespace)),
    call: (path: string, args: Record<string, unknown>): Promise<CallResponse> =>
      run(host.executor.execute({ code: callScript(path, args) })),
    close: () => host.close(),
  }
}

export type LocalHost = Awaited<ReturnType<typeof openLocalHost>>
