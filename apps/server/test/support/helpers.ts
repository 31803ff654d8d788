import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { startServer } from "../../src/serving/serve.js"
import type { RunningServer, ServeOptions } from "../../src/serving/serve.js"
import type { Logger } from "@switchboard/core"
import { createTestDatabase } from "@switchboard/fixtures"

/** Collects log lines instead of printing them, so a test can assert what was logged. */
export const memoryLogger = () => {
  const lines: { level: string; message: string; details?: Record<string, unknown> }[] = []
  const logger: Logger = {
    error: (message, details) => void lines.push({ level: "error", message, details }),
    warn: (message, details) => void lines.push({ level: "warn", message, details }),
    info: (message, details) => void lines.push({ level: "info", message, details }),
  }
  return { logger, lines }
}

export const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), "switchboard-test-"))
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) }
}

export interface TestServer extends RunningServer {
  dbPath: string
  request(method: string, path: string, body?: unknown): Promise<{ status: number; body: any; headers: Headers }>
  execute(code: string, extra?: Record<string, unknown>): Promise<any>
  stop(): Promise<void>
}

export type DatabaseKind = "sqlite" | "postgres"

/** A fixed key for Postgres catalogs, which need one (a SQLite catalog makes a key file of its own). */
export const TEST_SECRET_KEY = "c3dpdGNoYm9hcmQtdGVzdC1rZXktMzItYnl0ZXMhISE="

/** A real server on a loopback port with its own catalog: a SQLite file, or a fresh Postgres database. */
export const startTestServer = async (
  options: Partial<ServeOptions> & { dbPath?: string; keepDb?: boolean; database?: DatabaseKind } = {},
): Promise<TestServer> => {
  if (options.database === "postgres") {
    const database = await createTestDatabase("switchboard_e2e")
    const server = await startTestServer({
      secretKey: TEST_SECRET_KEY,
      ...options,
      database: "sqlite",
      dbPath: database.url,
      keepDb: true,
    })
    return { ...server, stop: async () => (await server.stop(), await database.drop()) }
  }
  const dir = options.dbPath ? null : tempDir()
  const dbPath = options.dbPath ?? join(dir!.dir, "catalog.db")
  const server = await startServer({ db: dbPath, port: 0, logger: memoryLogger().logger, ...options })
  const request = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(server.url + path, {
      method,
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
    })
    const text = await response.text()
    return { status: response.status, body: text ? JSON.parse(text) : null, headers: response.headers }
  }
  return {
    ...server,
    dbPath,
    request,
    async execute(code, extra = {}) {
      const response = await request("POST", "/v1/execute", { code, ...extra })
      if (response.status !== 200)
        throw new Error(`execute answered ${response.status}: ${JSON.stringify(response.body)}`)
      return response.body
    },
    async stop() {
      await server.close()
      if (!options.keepDb) dir?.remove()
    },
  }
}
