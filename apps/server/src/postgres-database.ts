/**
 * Opens a Postgres catalog through postgres.js and applies drizzle/postgres migrations at boot. Several
 * servers may boot at once against one database: migrations run under a session advisory lock, so one
 * server migrates while the others wait and then find nothing left to do.
 */
import { fileURLToPath } from "node:url"
import postgres from "postgres"
import { drizzle } from "drizzle-orm/postgres-js"
import { migrate } from "drizzle-orm/postgres-js/migrator"

export const postgresMigrationsFolder = fileURLToPath(new URL("../../../drizzle/postgres", import.meta.url))

/** An arbitrary constant that names "switchboard migrations" among advisory locks. */
const MIGRATION_LOCK_KEY = 0x5b0a_2d01

export const isPostgresUrl = (db: string) => /^postgres(ql)?:\/\//.test(db)

export const migratePostgres = async (url: string, migrationsFolder = postgresMigrationsFolder) => {
  const lock = postgres(url, { max: 1, onnotice: () => {} })
  try {
    await lock`select pg_advisory_lock(${MIGRATION_LOCK_KEY})`
    try {
      await migrate(drizzle(lock), { migrationsFolder })
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
