/**
 * Issue 13: source secrets are encrypted at rest. The raw database (the SQLite file and its WAL, Postgres's
 * heap file of `sources`) holds no secret; the files are 0600; a database written before encryption is sealed
 * at boot; a lost key gives a clear error naming the source, never garbage.
 */
import { chmodSync, existsSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import Database from "better-sqlite3"
import postgres from "postgres"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as Secrets from "@switchboard/core/secrets"
import { createTestDatabase, echoEnvServerScript, startEchoHeadersServer } from "@switchboard/fixtures"
import type { EchoHeadersServer } from "@switchboard/fixtures"
import { createHost } from "../../src/compose.js"
import { keyFileFor } from "../../src/database/secret-key.js"
import { migratePostgres } from "../../src/database/postgres-database.js"
import { openSqlite } from "../../src/database/sqlite-database.js"
import { TEST_SECRET_KEY, memoryLogger, startTestServer, tempDir } from "../support/helpers.js"
import type { DatabaseKind } from "../support/helpers.js"

const ENV_SECRET = "env-at-rest-9a8b7c6d"
const HEADER_SECRET = "hdr-at-rest-1f2e3d4c"
const QUERY_SECRET = "qry-at-rest-5b6a7988"
/** a credential passed as a stdio argument (`--api-key=…`), which the server ignores */
const ARG_SECRET = "arg-at-rest-3c4d5e6f"
const SECRETS = [ENV_SECRET, HEADER_SECRET, QUERY_SECRET, ARG_SECRET]

const envSource = (namespace: string, secret = ENV_SECRET) => ({
  namespace,
  kind: "mcp",
  transport: {
    type: "stdio",
    command: process.execPath,
    args: ["-e", echoEnvServerScript, "--", `--api-key=${ARG_SECRET}`],
    env: { ECHO_TOKEN: secret, ECHO_SHORT: "ok" },
  },
})

const expectNoSecretIn = (what: string, bytes: Buffer | string) => {
  for (const secret of SECRETS) expect(Buffer.from(bytes).includes(secret), `${what} holds ${secret}`).toBe(false)
}

let upstream: EchoHeadersServer
beforeAll(async () => {
  upstream = await startEchoHeadersServer()
})
afterAll(() => upstream?.close())

describe.each(["sqlite", "postgres"] as DatabaseKind[])("the raw %s database", (database) => {
  it("holds no secret value: only sealed enc:v1 strings, which still work", async () => {
    const server = await startTestServer({ allowStdio: true, database, keepDb: database === "sqlite" })
    try {
      expect((await server.request("POST", "/v1/sources", envSource("envs"))).status).toBe(201)
      const http = {
        type: "http",
        url: `${upstream.url}?api_key=${QUERY_SECRET}`,
        headers: { authorization: `Bearer ${HEADER_SECRET}` },
      }
      expect(
        (await server.request("POST", "/v1/sources", { namespace: "hdrs", kind: "mcp", transport: http })).status,
      ).toBe(201)
      // decrypted in memory for the calls: the tools got the real values
      const run = await server.execute(
        "return [(await tools.envs.echo({})).data.env.ECHO_SHORT, (await tools.hdrs.echo({})).ok]",
      )
      expect(run.result).toEqual(["ok", true])
      expect(JSON.stringify(upstream.received.at(-1))).toContain(HEADER_SECRET)
      expectNoSecretIn("GET /v1/sources", JSON.stringify((await server.request("GET", "/v1/sources")).body))

      if (database === "sqlite") {
        const files = [server.dbPath, `${server.dbPath}-wal`].filter(existsSync)
        for (const file of files) expectNoSecretIn(file, readFileSync(file))
        const sqlite = new Database(server.dbPath, { readonly: true })
        const configs = sqlite
          .prepare("select config from sources")
          .all()
          .map((r: any) => r.config as string)
        sqlite.close()
        expect(configs.join()).toContain("enc:v1:")
        expectNoSecretIn("sources.config", configs.join())
      } else {
        const sql = postgres(server.dbPath, { max: 1, onnotice: () => {} })
        try {
          const rows = await sql`select config::text as config from sources`
          expect(rows.map((r) => r.config).join()).toContain("enc:v1:")
          expectNoSecretIn("sources.config", rows.map((r) => r.config).join())
          // the table's own heap file, as a backup or a stolen disk would show it
          await sql`checkpoint`
          const [heap] = await sql`select pg_read_binary_file(pg_relation_filepath('sources')) as bytes`
          expect((heap!.bytes as Buffer).includes("enc:v1:")).toBe(true)
          expectNoSecretIn("the sources heap file", heap!.bytes as Buffer)
        } finally {
          await sql.end()
        }
      }
    } finally {
      await server.stop()
    }
    if (database === "sqlite") {
      // closed: the WAL was checkpointed into the file
      expectNoSecretIn("the closed database file", readFileSync(server.dbPath))
      rmSync(join(server.dbPath, ".."), { recursive: true, force: true })
    }
  }, 60_000)
})

it("the database file, its -wal and -shm, and the key file are created 0600 (the folder 0700)", async () => {
  const dir = tempDir()
  try {
    const dbPath = join(dir.dir, "nested", "catalog.db")
    const server = await startTestServer({ dbPath, keepDb: true, allowStdio: true })
    try {
      expect((await server.request("POST", "/v1/sources", envSource("envs"))).status).toBe(201)
      for (const file of [dbPath, `${dbPath}-wal`, `${dbPath}-shm`, keyFileFor(dbPath)]) {
        expect(existsSync(file), file).toBe(true)
        expect((statSync(file).mode & 0o777).toString(8), file).toBe("600")
      }
      expect((statSync(join(dir.dir, "nested")).mode & 0o777).toString(8)).toBe("700")
      expect(keyFileFor(dbPath)).toBe(join(dir.dir, "nested", "catalog.key"))
    } finally {
      await server.stop()
    }
  } finally {
    dir.remove()
  }
}, 60_000)

it("a database whose secrets an older build stored in plaintext is encrypted at boot, and keeps working", async () => {
  const dir = tempDir()
  try {
    const dbPath = join(dir.dir, "old.db")
    // what the previous build wrote: the config JSON as given, in a 0644 file
    const old = openSqlite(dbPath)
    old.sqlite
      .prepare(
        "insert into sources (id, namespace, kind, config, status, created_at, updated_at) values (?, ?, ?, ?, 'ready', 1, 1)",
      )
      .run("s1", "legacy", "mcp", JSON.stringify({ transport: envSource("legacy").transport }))
    old.close()
    chmodSync(dbPath, 0o644) // as the older build left it under the usual umask
    expect(readFileSync(dbPath).includes(ENV_SECRET)).toBe(true)

    const { logger, lines } = memoryLogger()
    const server = await startTestServer({ dbPath, keepDb: true, allowStdio: true, logger })
    try {
      expect(lines).toContainEqual(
        expect.objectContaining({
          level: "info",
          message: expect.stringContaining("encrypted the secrets"),
          details: { sources: ["legacy"] },
        }),
      )
      for (const file of [dbPath, `${dbPath}-wal`].filter(existsSync))
        expectNoSecretIn(`${file} after the boot`, readFileSync(file))
      expect((statSync(dbPath).mode & 0o777).toString(8)).toBe("600")
      const run = await server.execute("return (await tools.legacy.echo({})).data.env")
      expect(run.result).toEqual({ ECHO_TOKEN: "<redacted>", ECHO_SHORT: "ok" })
    } finally {
      await server.stop()
    }
    expectNoSecretIn("the closed database file", readFileSync(dbPath))
  } finally {
    dir.remove()
  }
}, 60_000)

it("on Postgres too: plaintext an older build stored is encrypted at boot, and keeps working", async () => {
  const database = await createTestDatabase("switchboard_secrets")
  try {
    await migratePostgres(database.url)
    const sql = postgres(database.url, { max: 1, onnotice: () => {} })
    try {
      await sql`insert into sources (id, namespace, kind, config, status, created_at, updated_at) values ('s1', 'legacy', 'mcp', ${sql.json({ transport: envSource("legacy").transport } as never)}, 'ready', 1, 1)`
      expect((await sql`select config::text as c from sources`)[0]!.c).toContain(ENV_SECRET)
      const { logger, lines } = memoryLogger()
      const server = await startTestServer({
        dbPath: database.url,
        keepDb: true,
        allowStdio: true,
        secretKey: TEST_SECRET_KEY,
        logger,
      })
      try {
        expect(lines).toContainEqual(
          expect.objectContaining({
            message: expect.stringContaining("encrypted the secrets"),
            details: { sources: ["legacy"] },
          }),
        )
        const stored = (await sql`select config::text as c from sources`)[0]!.c as string
        expect(stored).toContain("enc:v1:")
        expectNoSecretIn("sources.config", stored)
        expect((await server.execute("return (await tools.legacy.echo({})).data.env.ECHO_SHORT")).result).toBe("ok")
      } finally {
        await server.stop()
      }
    } finally {
      await sql.end()
    }
  } finally {
    await database.drop()
  }
}, 60_000)

describe("a lost key", () => {
  const dir = tempDir()
  const dbPath = join(dir.dir, "catalog.db")
  afterAll(() => dir.remove())

  it("the boot warns naming the source; listing works; a call and a sync fail with source_secrets_unreadable naming it; PATCH mends it", async () => {
    const first = await startTestServer({ dbPath, keepDb: true, allowStdio: true })
    expect((await first.request("POST", "/v1/sources", envSource("lost"))).status).toBe(201)
    expect(
      (
        await first.request("POST", "/v1/sources", {
          namespace: "plain",
          kind: "mcp",
          transport: { type: "http", url: upstream.url, headers: {} },
        })
      ).status,
    ).toBe(201)
    const keyed = {
      type: "http",
      url: `${upstream.url}?api_key=k-lost-1234`,
      headers: { authorization: "Bearer lost-5678" },
    }
    expect(
      (await first.request("POST", "/v1/sources", { namespace: "keyed", kind: "mcp", transport: keyed })).status,
    ).toBe(201)
    await first.stop()
    // the key file is gone (a fresh one is made), as when a database is restored without it
    writeFileSync(keyFileFor(dbPath), `${Secrets.encodeSecretKey(Secrets.generateSecretKey())}\n`, { mode: 0o600 })

    const { logger, lines } = memoryLogger()
    const server = await startTestServer({ dbPath, keepDb: true, allowStdio: true, logger })
    try {
      const warning = lines.find((l) => l.level === "warn" && l.message.includes("cannot be decrypted"))
      expect(warning?.details).toEqual({ sources: ["keyed", "lost"] })
      expect(warning?.message).toContain("PATCH /v1/sources/<namespace>")

      const listed = await server.request("GET", "/v1/sources")
      expect(listed.status).toBe(200)
      const lost = listed.body.sources.find((s: any) => s.namespace === "lost")
      expect(lost.status).toBe("error")
      expect(lost.syncError).toMatch(
        /secrets of source "lost" \(transport\.env\.ECHO_TOKEN, transport\.env\.ECHO_SHORT, transport\.args\.3\) cannot be read: they were encrypted with another key \(key id [0-9a-f]{16}; this server's key id is [0-9a-f]{16}\)/,
      )
      expect(lost.config.transport.env).toEqual({ ECHO_TOKEN: "<redacted>", ECHO_SHORT: "<redacted>" })
      expect(listed.body.sources.find((s: any) => s.namespace === "plain").status).toBe("ready")

      const run = await server.execute(
        "const r = await tools.lost.echo({}); const p = await tools.plain.echo({}); return { r, plain: p.ok }",
      )
      expect(run.result.plain).toBe(true)
      expect(run.result.r).toMatchObject({ ok: false, error: { code: "source_secrets_unreadable" } })
      expect(run.result.r.error.message).toContain('source "lost"')
      expect(run.result.r.error.message).toContain("PATCH /v1/sources/lost")

      const sync = await server.request("POST", "/v1/sources/lost/sync")
      expect(sync.status).toBe(409)
      expect(sync.body.error.code).toBe("source_secrets_unreadable")

      // the argument that carries a credential was sealed too, and is sent anew with the env
      const patched = await server.request("PATCH", "/v1/sources/lost", {
        transport: {
          env: { ECHO_TOKEN: "a-new-token-2024", ECHO_SHORT: "v2" },
          args: ["-e", echoEnvServerScript, "--", "--api-key=arg-new-77778888"],
        },
      })
      expect(patched.status, JSON.stringify(patched.body)).toBe(200)
      expect(patched.body.source).toMatchObject({ status: "ready", syncError: null })
      expect((await server.execute("return (await tools.lost.echo({})).data.env")).result).toEqual({
        ECHO_TOKEN: "<redacted>",
        ECHO_SHORT: "v2",
      })

      // a PATCH that would leave an unreadable secret in place says which, and changes nothing
      const partial = await server.request("PATCH", "/v1/sources/keyed", {
        transport: { headers: { authorization: "Bearer new-9999" } },
      })
      expect(partial.status).toBe(409)
      expect(partial.body.error).toEqual({
        code: "source_secrets_unreadable",
        message: expect.stringMatching(
          /^transport\.url of source "keyed" cannot be decrypted .*send a new value for it in this PATCH too$/,
        ),
      })
      const whole = await server.request("PATCH", "/v1/sources/keyed", {
        transport: { headers: { authorization: "Bearer new-9999" }, url: `${upstream.url}?api_key=k-new-0000` },
      })
      expect(whole.status, JSON.stringify(whole.body)).toBe(200)
      expect(whole.body.source).toMatchObject({ status: "ready", syncError: null })
      expect((await server.execute("return (await tools.keyed.echo({})).data.url")).result).toBe(
        "/mcp?api_key=<redacted>",
      )
    } finally {
      await server.stop()
    }
  }, 60_000)
})

describe("the key", () => {
  it("a malformed SWITCHBOARD_SECRET_KEY stops the start with a clear message that does not repeat it", async () => {
    const dir = tempDir()
    try {
      const attempt = createHost({
        db: join(dir.dir, "x.db"),
        secretKey: "dG9vLXNob3J0LXNlY3JldA",
        runtime: "in-thread",
        logger: memoryLogger().logger,
      })
      await expect(attempt).rejects.toThrow(
        /^SWITCHBOARD_SECRET_KEY must be 32 random bytes in base64 or base64url \(it decodes to 16 bytes\); make one with: openssl rand -base64 32$/,
      )
      expect(existsSync(join(dir.dir, "x.db"))).toBe(false)
    } finally {
      dir.remove()
    }
  })

  it("a Postgres catalog without a key refuses to start, saying why and how to make one", async () => {
    await expect(
      createHost({ db: "postgres://postgres@127.0.0.1:5432/none", secretKey: "", runtime: "in-thread" }),
    ).rejects.toThrow(
      /Postgres catalog needs SWITCHBOARD_SECRET_KEY.*every server sharing the catalog.*openssl rand -base64 32/,
    )
  })

  it("a key given in SWITCHBOARD_SECRET_KEY is used instead of a key file, and none is made", async () => {
    const dir = tempDir()
    try {
      const dbPath = join(dir.dir, "x.db")
      const host = await createHost({
        db: dbPath,
        secretKey: Secrets.encodeSecretKey(Secrets.generateSecretKey())
          .replace(/\+/g, "-")
          .replace(/\//g, "_")
          .replace(/=+$/, ""),
        runtime: "in-thread",
        logger: memoryLogger().logger,
      })
      await host.close()
      expect(existsSync(keyFileFor(dbPath))).toBe(false)
    } finally {
      dir.remove()
    }
  })
})
