/**
 * What the local catalog does through a host (./local-client.ts loads this only then): add, sync, update and remove a
 * source, through the sources service's Effects as the API runs them; call a tool, as one execution; add and remove
 * a policy rule; and decide an approval, whose resume then runs here, in the command's process, which waits for it
 * to be recorded before it exits. A command that runs no script gets a runtime that refuses one instead of the
 * worker pool, whose threads would load QuickJS for nothing. Errors carry the API's codes (`errorCode`, the one
 * place service errors get theirs).
 */
import { Cause, Effect, Exit, Option } from "effect"
import { errorCode } from "@switchboard/api"
import type * as Sources from "@switchboard/core/sources"
import * as Approvals from "@switchboard/core/approvals"
import * as Auth from "@switchboard/core/auth"
import type { CodeRuntime, Outcome, ServiceError } from "@switchboard/core"
import { RunErrorCodes } from "@switchboard/core"
import type { StdioAllowance } from "@switchboard/plugin-mcp"
import { createHost } from "../compose.js"
import type { CallResponse, DecisionAnswer, DecisionRequest, PolicyView } from "./catalog-client.js"
import { CatalogClientError } from "./catalog-client.js"
import { approvalView, policyView } from "./views.js"

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

/** A service's outcome's value, or its error as the API would answer it. */
const value = <A>(outcome: Outcome<A>): A => {
  if (outcome.ok) return outcome.value
  throw new CatalogClientError(errorCode(outcome.error), outcome.error.message)
}

export const openLocalHost = async (
  db: string,
  { allowStdio, scripts }: { allowStdio: StdioAllowance; scripts: boolean },
) => {
  const host = await createHost({
    db,
    allowStdio,
    // one call: one worker, as `run`
    ...(scripts ? { workers: 1 } : { runtime: noScripts }),
    // the command says what happened; the host's own lines (a sync's progress, each second) would repeat it
    logLevel: "warn",
    // a command lives too briefly to take on other executions' resumes: a server's sweep does (layers/approvals.ts)
    approvalSweepMs: null,
  })
  const logins = host.oauth!.forSources({
    store: host.store,
    plugins: host.plugins ?? [],
    sync: (namespace) => run(host.sources.sync(namespace)),
  })
  return {
    addSource: (body: Record<string, unknown>, onProgress?: Sources.ProgressListener): Promise<Sources.SourceView> =>
      run(host.sources.add(body, { onProgress })),
    syncSource: (namespace: string, onProgress?: Sources.ProgressListener): Promise<Sources.SourceView> =>
      run(host.sources.sync(namespace, { onProgress })),
    updateSource: (namespace: string, patch: Record<string, unknown>): Promise<Sources.SourceUpdate> =>
      run(host.sources.update(namespace, patch)),
    removeSource: (namespace: string): Promise<void> => run(host.sources.remove(namespace)),
    getSource: (namespace: string): Promise<Sources.SourceView> => run(host.sources.get(namespace)),
    /** a login whose browser comes back to this command's loopback listener, as the operator (no key) */
    beginLogin: async (namespace: string, redirectUri: string) => {
      const started = await run(logins.begin(namespace, { redirectUri, keyId: null }))
      return { authorizationUrl: started.authorizationUrl, expiresAt: new Date(started.expiresAt).toISOString() }
    },
    completeLogin: async (callback: URLSearchParams) => {
      const done = await run(logins.complete(callback))
      return { namespace: done.namespace, syncError: done.syncError }
    },
    execute: (code: string): Promise<CallResponse> => run(host.executor.execute({ code })),
    addPolicy: async (body: Record<string, unknown>): Promise<PolicyView> =>
      policyView(value(await host.policies.add(body))),
    removePolicy: async (id: string): Promise<void> => void value(await host.policies.remove(id)),
    /**
     * Decides as an admin would (whoever can open the file may), then waits for the resume the decision began
     * here to end and be recorded, whatever `wait` says: it runs in this process, which must not exit under it.
     */
    async decideApproval(id: string, { wait, ...body }: DecisionRequest): Promise<DecisionAnswer> {
      // checked before anything is decided, as the route does
      if (wait !== undefined) value(Approvals.parseWait(wait))
      const decided = value(await host.approvals.decide(Auth.OPEN_CALLER, id, body))
      // the resume `decide` started: `start` answers the one running for this approval (it is still running: it
      // has a sandbox to reach) rather than start another
      const resumed = await host.approvals.start(decided)
      const waited = await host.approvals.wait(decided, 0)
      if (resumed === null || !waited.execution)
        throw new CatalogClientError(
          "resume_failed",
          `approval ${id} is ${decided.status}, but its execution could not be resumed here (the log above says why); ` +
            "a server on this catalog resumes it once this attempt's lease has passed",
        )
      return {
        approval: approvalView(waited.approval),
        execution: waited.execution,
        ...(waited.next ? { next: approvalView(waited.next) } : {}),
      }
    },
    close: () => host.close(),
  }
}

export type LocalHost = Awaited<ReturnType<typeof openLocalHost>>
