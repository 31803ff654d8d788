/** createApp over stand-in services: enough for the middleware and the route table, no database or sandbox. */
import { Effect } from "effect"
import * as Auth from "@switchboard/core/auth"
import type { AppOptions, AppServices } from "../src/app.js"
import { createApp } from "../src/app.js"

export const stubServices = (): AppServices => {
  const source = {
    namespace: "demo",
    kind: "mcp",
    status: "ready",
    toolCount: 0,
    lastSyncedAt: null,
    syncError: null,
    config: null,
  }
  const services = {
    logger: { error: () => {}, warn: () => {}, info: () => {} },
    sources: {
      kinds: [],
      add: () => Effect.succeed(source),
      list: async () => [source],
      sync: () => Effect.succeed(source),
      update: () => Effect.succeed(source),
      remove: () => Effect.void,
      ensureFreshNamespace: async () => {},
    },
    store: {
      checkReadiness: async () => {},
      listSources: async () => [],
      listTools: async () => [],
      getTool: async () => null,
      getExecution: async () => null,
      getResult: async () => null,
    },
    executor: {
      parse: (body: unknown) => ({ ok: true, value: body }),
      execute: () => Effect.succeed({ executionId: "e1", stored: true, ok: true, result: 1, text: "1", logs: [] }),
      run: async () => ({ executionId: "e1", stored: true, ok: true, result: 1, text: "1", logs: [] }),
    },
  }
  return services as unknown as AppServices
}

export const stubApp = (options: AppOptions = {}, services: Partial<AppServices> = {}) =>
  createApp({ ...stubServices(), ...services }, options)

/** core's key service over a map instead of a catalog: real keys, hashes and scope checks, no database. */
export const memoryKeys = (rows: Auth.ApiKeyRow[] = [], now = () => Date.now()) => {
  const stored = new Map(rows.map((row) => [row.id, { ...row }]))
  return Auth.createApiKeyService(
    {
      insertApiKey: async (row) => void stored.set(row.id, { ...row }),
      findApiKey: async (hash) => [...stored.values()].find((row) => row.hash === hash) ?? null,
      listApiKeys: async () => [...stored.values()].sort((a, b) => a.createdAt - b.createdAt),
      revokeApiKey: async (id, at) => {
        const row = stored.get(id)
        if (row && row.revokedAt === null) row.revokedAt = at
        return row !== undefined
      },
    },
    now,
  )
}

/** A live key row whose hash is its id, with the scopes given. */
export const keyRow = (id: string, scopes: string[]): Auth.ApiKeyRow => ({
  id,
  name: id,
  hash: id,
  scopes,
  createdAt: 0,
  revokedAt: null,
})
