/**
 * Opens a Postgres catalog through postgres.js and applies drizzle/postgres migrations at boot. Several
 * servers may boot at once against one database: migrations run under a session advisory lock, so one
 * server migrates while the others wait and then find nothing left to do.
 */
import postgres from "postgres"
import { drizzle } from "drizzle-orm/postgres-js"
import { migrate } from "drizzle-orm/postgres-js/migrator"
import * as Catalog from "@switchboard/core/catalog"
import { migrationsFolder } from "../build-outputs.js"
import type { CatalogDatabase } from "./database-shape.js"

export const postgresMigrationsFolder = migrationsFolder("postgres")

/** An arbitrary constant that names "switchboard migrations" among advisory locks. */
const MIGRATION_LOCK_KEY = 0x5b0a_2d01

export const migratePostgres = async (url: string, folder = migrationsFolder("postgres")) => {
  const lock = postgres(url, { max: 1, onnotice: () => {} })
  try {
    await lock`select pg_advisory_lock(${MIGRATION_LOCK_KEY})`
    try {
      await migrate(drizzle(lock), { migrationsFolder: folder })
    } finally {
      await lock`select pg_advisory_unlock(${MIGRATION_LOCK_KEY})`
    }
  } finally {
    await lock.end()
  }
}

export interface PostgresOptions {
  maxConnections?: number
  /** how long a statement waits for another session's lock before it fails (default 5 s) */
  lockWaitMs?: number
  /** how long any one statement may run before Postgres cancels it (default 30 s) */
  statementTimeoutMs?: number
}

/**
 * Server-side bounds on every session, so a locked table or a runaway query fails with Postgres's own error
 * ("canceling statement due to lock timeout") instead of holding a request, and a pooled connection, forever.
 */
export const openPostgres = async (url: string, options: PostgresOptions = {}) => {
  await migratePostgres(url)
  const client = postgres(url, {
    max: options.maxConnections ?? 10,
    onnotice: () => {},
    connection: {
      lock_timeout: options.lockWaitMs ?? 5_000,
      statement_timeout: options.statementTimeoutMs ?? 30_000,
      idle_in_transaction_session_timeout: options.statementTimeoutMs ?? 30_000,
    },
  })
  const db = drizzle(client)
  return { db, client, close: () => client.end({ timeout: 5 }) }
}

/** The catalog on Postgres (catalog-database.ts loads this module only for a postgres:// URL). */
export const openPostgresCatalog = async (url: string, options: PostgresOptions = {}): Promise<CatalogDatabase> => {
  const postgres = await openPostgres(url, options)
  return { store: Catalog.createPgCatalogStore(postgres.db), dialect: "postgres", close: postgres.close }
}
