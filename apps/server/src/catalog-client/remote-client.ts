/**
 * The catalog of a running server (`--url`), through the API's typed client (hono's `hc` over the app's route
 * types: a few kilobytes of hono at run time, no app code). `SWITCHBOARD_KEY`, when set, is sent as the bearer
 * key; it is never a flag, which would leave it in shell history and in `ps`.
 */
import { createClient } from "@switchboard/api/client"
import type * as Sources from "@switchboard/core/sources"
import type * as Describe from "@switchboard/core/describe"
import type {
  ApprovalView,
  ApprovalsAnswer,
  CallResponse,
  CatalogClient,
  DecisionAnswer,
  ExecutionAnswer,
  ExecutionsPage,
  OutputMatches,
  OutputPage,
  PoliciesAnswer,
  PolicyView,
  ToolsAnswer,
} from "./catalog-client.js"
import { CatalogClientError } from "./catalog-client.js"
import { displayDb } from "../database/display-db.js"
import { callScript } from "./call-script.js"
import { KEY_ENV } from "../cli/flags.js"

/** what fetch rejects with when nothing answered: Node's `TypeError: fetch failed`, its cause the socket's error */
const reason = (cause: unknown) => {
  const inner = (cause as { cause?: { code?: unknown; message?: unknown } } | null)?.cause
  if (typeof inner?.code === "string") return inner.code
  if (typeof inner?.message === "string") return inner.message
  return cause instanceof Error ? cause.message : String(cause)
}

/** An answer that is not a 2xx: the API's `{"error":{"code","message"}}`, or what a proxy in front sent instead. */
const failureOf = async (response: Response, keySent: boolean): Promise<CatalogClientError> => {
  const text = await response.text()
  let body: { error?: { code?: unknown; message?: unknown } } | undefined
  try {
    body = JSON.parse(text)
  } catch {}
  const { code, message } = body?.error ?? {}
  if (typeof code !== "string" || typeof message !== "string")
    return new CatalogClientError(
      `http_${response.status}`,
      `the server answered ${response.status} ${response.statusText}: ${text.slice(0, 200)}`,
    )
  if (response.status !== 401) return new CatalogClientError(code, message)
  const hint = keySent ? `The key in $${KEY_ENV} was refused.` : `The CLI sends $${KEY_ENV}, which is not set.`
  return new CatalogClientError(code, `${message} ${hint}`)
}

export const openRemoteClient = (url: string, key = process.env[KEY_ENV] || undefined): CatalogClient => {
  const base = url.replace(/\/+$/, "")
  const client = createClient(base, { headers: key ? { authorization: `Bearer ${key}` } : {} })

  /** the answer when it is a 2xx; otherwise its error, or that no server answered at `base` */
  const answer = async (request: Promise<Response>): Promise<Response> => {
    const response = await request.catch((cause: unknown) => {
      throw new CatalogClientError(
        "unreachable",
        `no server answered at ${displayDb(base)}: ${reason(cause).replaceAll(base, displayDb(base))}`,
      )
    })
    if (!response.ok) throw await failureOf(response, key !== undefined)
    return response
  }
  const json = async <T>(request: Promise<Response>): Promise<T> => (await answer(request)).json() as Promise<T>
  // hc puts a path parameter in the URL as it is
  const param = encodeURIComponent

  return {
    target: base,
    listSources: async () => (await json<{ sources: Sources.SourceView[] }>(client.v1.sources.$get())).sources,
    addSource: async (body) =>
      (await json<{ source: Sources.SourceView }>(client.v1.sources.$post({ json: body as never }))).source,
    syncSource: async (namespace) =>
      (
        await json<{ source: Sources.SourceView }>(
          client.v1.sources[":namespace"].sync.$post({ param: { namespace: param(namespace) } }),
        )
      ).source,
    updateSource: async (namespace, patch) =>
      json<Sources.SourceUpdate>(
        client.v1.sources[":namespace"].$patch({ param: { namespace: param(namespace) }, json: patch }),
      ),
    getSource: async (namespace) =>
      (
        await json<{ source: Sources.SourceView }>(
          client.v1.sources[":namespace"].$get({ param: { namespace: param(namespace) } }),
        )
      ).source,
    beginLogin: async (namespace) =>
      json<{ authorizationUrl: string; expiresAt: string }>(
        client.v1.sources[":namespace"].login.$post({ param: { namespace: param(namespace) } }),
      ),
    removeSource: async (namespace) =>
      void (await answer(client.v1.sources[":namespace"].$delete({ param: { namespace: param(namespace) } }))),
    listTools: async ({ query, namespace, limit }) =>
      (
        await json<ToolsAnswer>(
          client.v1.tools.$get({
            query: {
              ...(query === undefined ? {} : { query }),
              ...(namespace === undefined ? {} : { namespace }),
              ...(limit === undefined ? {} : { limit: String(limit) }),
            },
          }),
        )
      ).tools,
    describe: (paths) => json<Describe.DescribeResult>(client.v1.describe.$post({ json: { paths } })),
    execute: (code) => json<CallResponse>(client.v1.execute.$post({ json: { code } })),
    call: (path, args) => json<CallResponse>(client.v1.execute.$post({ json: { code: callScript(path, args) } })),
    listExecutions: ({ limit, before, status }) =>
      json<ExecutionsPage>(
        client.v1.executions.$get({
          query: { limit: String(limit), ...(before === undefined ? {} : { before }), ...(status ? { status } : {}) },
        }),
      ),
    getExecution: (id) => json<ExecutionAnswer>(client.v1.executions[":id"].$get({ param: { id: param(id) } })),
    readOutput: async (id) =>
      (await answer(client.v1.executions[":id"].output.$get({ param: { id: param(id) }, query: {} }))).text(),
    readOutputPage: (id, { offset, limit, charOffset }) =>
      json<OutputPage>(
        client.v1.executions[":id"].output.$get({
          param: { id: param(id) },
          query: {
            ...(offset === undefined ? {} : { offset: String(offset) }),
            ...(limit === undefined ? {} : { limit: String(limit) }),
            ...(charOffset === undefined ? {} : { charOffset: String(charOffset) }),
          },
        }),
      ),
    grepOutput: (id, pattern) =>
      json<OutputMatches>(
        client.v1.executions[":id"].output.$get({ param: { id: param(id) }, query: { grep: pattern } }),
      ),
    listPolicies: () => json<PoliciesAnswer>(client.v1.policies.$get()),
    addPolicy: async (body) =>
      (await json<{ policy: PolicyView }>(client.v1.policies.$post({ json: body as never }))).policy,
    removePolicy: async (id) => void (await answer(client.v1.policies[":id"].$delete({ param: { id: param(id) } }))),
    listApprovals: async ({ status, limit }) =>
      (await json<ApprovalsAnswer>(client.v1.approvals.$get({ query: { status, limit: String(limit) } }))).approvals,
    getApproval: async (id) =>
      (await json<{ approval: ApprovalView }>(client.v1.approvals[":id"].$get({ param: { id: param(id) } }))).approval,
    decideApproval: (id, { wait, ...body }) =>
      json<DecisionAnswer>(
        client.v1.approvals[":id"].$post({
          param: { id: param(id) },
          query: wait === undefined ? {} : { wait },
          json: body,
        }),
      ),
    close: async () => {},
  }
}
