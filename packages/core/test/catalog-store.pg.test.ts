import { fileURLToPath } from "node:url"
import postgres from "postgres"
import { drizzle } from "drizzle-orm/postgres-js"
import { migrate } from "drizzle-orm/postgres-js/migrator"
import { afterAll, beforeAll } from "vitest"
import { createTestDatabase } from "@switchboard/fixtures"
import type { TestDatabase } from "@switchboard/fixtures"
import { createPgCatalogStore } from "../src/catalog/dialect-pg.js"
import type { PgCatalogDb } from "../src/catalog/dialect-pg.js"
import { catalogStoreContract } from "./catalog-store.contract.js"

// One database per run (created here, dropped after); each test starts from empty tables.
let database: TestDatabase
beforeAll(async () => {
  database = await createTestDatabase("switchboard_store")
  const client = postgres(database.url, { max: 1, onnotice: () => {} })
  await migrate(drizzle(client), {
    migrationsFolder: fileURLToPath(new URL("../../../drizzle/postgres", import.meta.url)),
  })
  await client.end()
})
afterAll(() => database?.drop())

// results over 64 KiB of UTF-8 go in parts (the default, named here as the title says it), as over D1's row allowance
const options = { resultPartBytes: 64 * 1024 }

catalogStoreContract("Postgres, results in 64 KiB parts", async () => {
  const clients = [postgres(database.url, { max: 4, onnotice: () => {} })]
  await clients[0]!.unsafe(
    "truncate sources, tools, tool_shapes, executions, execution_result_parts, tool_calls, api_keys, policies, approvals cascade",
  )
  const storeOn = (client: postgres.Sql) => createPgCatalogStore(drizzle(client) as unknown as PgCatalogDb, options)
  return {
    store: storeOn(clients[0]!),
    second: () => {
      const client = postgres(database.url, { max: 4, onnotice: () => {} })
      clients.push(client)
      return storeOn(client)
    },
    exec: async (statement: string) => void (await clients[0]!.unsafe(statement)),
    close: async () => void (await Promise.all(clients.map((client) => client.end()))),
  }
})
