/**
 * The catalog in a local database (`--db`), the CLI's default. What only reads it (sources, describe, executions
 * and their output) opens the database alone, as `tools` and `keys` do: no MCP SDK, no sandbox, no HTTP app.
 * What must reach a source (add, sync, remove, call), or run a script (a decided approval's resume), or check a
 * request (a policy rule's add) builds the host as `run` does (./local-host.ts, loaded only then), with
 * `--allow-stdio` deciding whether a stdio source may be started.
 */
import * as Catalog from "@switchboard/core/catalog"
import * as Sources from "@switchboard/core/sources"
import * as Policy from "@switchboard/core/policy"
import * as Render from "@switchboard/core/render"
import * as Describe from "@switchboard/core/describe"
import * as Auth from "@switchboard/core/auth"
import * as Secrets from "@switchboard/core/secrets"
import type { CatalogStore } from "@switchboard/core"
import { mcpConfigView } from "@switchboard/plugin-mcp"
import { openApiConfigView } from "@switchboard/plugin-openapi"
import type { StdioAllowance } from "@switchboard/plugin-mcp"
import { openCatalogDatabase } from "../database/catalog-database.js"
import type { CatalogDatabase } from "../database/catalog-database.js"
import { existingSecretKey } from "../database/secret-key.js"
import type { CatalogClient } from "./catalog-client.js"
import { CatalogClientError } from "./catalog-client.js"
import type { LocalHost } from "./local-host.js"
import { callScript } from "./call-script.js"
import { approvalView, localPolicies } from "./views.js"

export interface LocalClientOptions {
  /** which stdio sources may be started (add, sync, call) */
  allowStdio: StdioAllowance
}

/** the kinds of source the Node host takes (layers/plugins.ts), as far as showing one needs */
const configViews = [mcpConfigView, openApiConfigView]

export const openLocalClient = (db: string, { allowStdio }: LocalClientOptions): CatalogClient => {
  let database: Promise<CatalogDatabase> | undefined
  let host: Promise<LocalHost> | undefined
  const store = async (): Promise<CatalogStore> => (await (database ??= openCatalogDatabase(db))).store
  const hostFor = (scripts: boolean) =>
    (host ??= import("./local-host.js").then(({ openLocalHost }) => openLocalHost(db, { allowStdio, scripts })))

  /**
   * The store behind the secret box, to show sources as the API does: their configs' secrets opened, then redacted
   * by their kind, and a source whose secrets do not open listed as failing. A key file is never made here: without
   * one, no secret opens, which is what a server started on this catalog would find too.
   */
  const sealedStore = async () => {
    const key = existingSecretKey(db)
    const box = await Secrets.createSecretBox(key?.key ?? Secrets.generateSecretKey())
    return Secrets.createSealedCatalogStore({ store: await store(), box, plugins: configViews })
  }

  /**
   * The catalog's policy rules as a server with approvals on applies them, for describe to show each tool's policy
   * as the server's does: `effectivePolicy` over the stored rules, not the policy service, whose request checks
   * would load zod into this bundle.
   */
  const policies = async (): Promise<Parameters<typeof Describe.createDescribeService>[1]> => {
    const rules = await (await store()).listPolicies()
    return { decide: async (subject) => Policy.effectivePolicy(rules, subject, { approvals: true }) }
  }

  const execution = async (id: string): Promise<Catalog.StoredExecution> => {
    const found = await (await store()).getExecution(id)
    if (!found) throw new CatalogClientError("not_found", `no execution "${id}"`)
    return found
  }
  const output = async (id: string): Promise<string> => {
    const text = (await execution(id)).resultText
    if (text === null) throw new CatalogClientError("not_found", `execution "${id}" failed and stored no output`)
    return text
  }

  return {
    target: db,
    async listSources() {
      const sealed = await sealedStore()
      return Promise.all(
        (await sealed.listSources()).map(async (row) =>
          Sources.sourceView(row, {
            toolCount: await sealed.countTools(row.id),
            plugin: configViews.find((view) => view.kind === row.kind),
            // whoever can open the file is the operator, as admin is
            viewer: "admin",
            grant: await sealed.getSourceAuth(row.id),
          }),
        ),
      )
    },
    addSource: async (body, onProgress) => (await hostFor(false)).addSource(body, onProgress),
    syncSource: async (namespace, onProgress) => (await hostFor(false)).syncSource(namespace, onProgress),
    updateSource: async (namespace, patch) => (await hostFor(false)).updateSource(namespace, patch),
    removeSource: async (namespace) => (await hostFor(false)).removeSource(namespace),
    getSource: async (namespace) => (await hostFor(false)).getSource(namespace),
    beginLogin: async (namespace, redirectUri) => {
      if (!redirectUri) throw new CatalogClientError("invalid_request", "a local login needs its loopback redirect")
      return (await hostFor(false)).beginLogin(namespace, redirectUri)
    },
    completeLogin: async (callback) => (await hostFor(false)).completeLogin(callback),
    async listTools({ query, namespace, limit }) {
      const tools = query?.trim()
        ? await Describe.createDescribeService(await store(), await policies()).search(query, { namespace, limit })
        : await (await store()).listTools({ namespace, limit })
      return tools.map(({ path, namespace, name, description }) => ({ path, namespace, name, description }))
    },
    describe: async (paths) => Describe.createDescribeService(await store(), await policies()).describeMany({ paths }),
    execute: async (code) => (await hostFor(true)).execute(code),
    call: async (path, args) => (await hostFor(true)).execute(callScript(path, args)),
    // whoever can open the file reads every execution, as admin does (and `switchboard mcp` over stdio)
    listExecutions: async (request) => Auth.listExecutionsPage(await store(), Auth.OPEN_CALLER, request),
    async getExecution(id) {
      const found = await execution(id)
      if (found.status !== "paused") return { execution: found }
      const [pending] = await (await store()).listApprovals({ executionId: id, status: "pending", limit: 1 })
      return pending ? { execution: found, approval: approvalView(pending) } : { execution: found }
    },
    readOutput: output,
    readOutputPage: async (id, { offset, limit, charOffset }) => ({
      executionId: id,
      ...Render.readOutputLines(await output(id), offset ?? 0, limit ?? Render.DEFAULT_PAGE_LINES, charOffset ?? 0),
    }),
    async grepOutput(id, pattern) {
      const text = await output(id)
      // as the server does: in a worker thread, stopped past its time limit, so no pattern holds this process
      const { createGrepRunner } = await import("../grep/grep-runner.js")
      const runner = createGrepRunner()
      try {
        const found = await runner.grep(Catalog.textPages(text), pattern)
        if (!found.ok)
          throw new CatalogClientError(found.code === "invalid_pattern" ? "invalid_request" : found.code, found.message)
        const { ok: _, ...matches } = found
        return { executionId: id, ...matches }
      } finally {
        await runner.close()
      }
    },
    listPolicies: async () => localPolicies(await (await store()).listPolicies()),
    addPolicy: async (body) => (await hostFor(false)).addPolicy(body),
    removePolicy: async (id) => (await hostFor(false)).removePolicy(id),
    // whoever can open the file sees every approval, as admin does
    listApprovals: async ({ status, limit }) =>
      (await (await store()).listApprovals({ limit, ...(status === "all" ? {} : { status }) })).map(approvalView),
    async getApproval(id) {
      const found = await (await store()).getApproval(id)
      if (!found) throw new CatalogClientError("not_found", `no approval "${id}"`)
      return approvalView(found)
    },
    // the resume runs here: a script, so a host with a worker
    decideApproval: async (id, request) => (await hostFor(true)).decideApproval(id, request),
    async close() {
      // what failed to open has nothing to close
      const ignore = () => {}
      await Promise.all([database?.then((d) => d.close(), ignore), host?.then((h) => h.close(), ignore)])
    },
  }
}
