import { fileURLToPath } from "node:url"
import postgres from "postgres"
import { drizzle } from "drizzle-orm/postgres-js"
import { migrate } from "drizzle-orm/postgres-js/migrator"
import { afterAll, beforeAll } from "vitest"
import { createTestDatabase } from "@switchboard/fixtures"
import type { TestDatabase } from "@switchboard/fixtures"
import { createPgCatalogStore } from "../src/index.js"
import type { PgCatalogDb } from "../src/index.js"
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

catalogStoreContract("Postgres", async () => {
  const client = postgres(database.url, { max: 4, onnotice: () => {} })
  await client.unsafe("truncate sources, tools, tool_shapes, executions, tool_calls, api_keys cascade")
  return { store: createPgCatalogStore(drizzle(client) as unknown as PgCatalogDb), close: () => client.end() }
})
