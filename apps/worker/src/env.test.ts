/** readConfig: what the operator must set, each problem named; a value, never an exception. */
import { describe, expect, it } from "vitest"
import * as Auth from "@switchboard/core/auth"
import { readConfig } from "./env.js"
import type { Env } from "./env.js"

const ADMIN_KEY = `sb_${"a".repeat(43)}`
const SECRET_KEY = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8="
const DB = {} as D1Database

const problemsOf = (env: Partial<Env>) => {
  const read = readConfig(env as Env)
  if (read.ok) throw new Error("expected readConfig to refuse this env")
  expect(read.message).toMatch(/^this Worker is not configured: /)
  return read.message
}

describe("readConfig", () => {
  it("accepts a D1 binding, an admin key and a secret key", () => {
    const read = readConfig({ DB, SWITCHBOARD_ADMIN_KEY: ADMIN_KEY, SWITCHBOARD_SECRET_KEY: SECRET_KEY })
    expect(read.ok).toBe(true)
    if (read.ok) {
      expect(read.config.adminKey).toBe(ADMIN_KEY)
      expect(read.config.secretKey.byteLength).toBe(32)
    }
  })

  it("is read once per isolate for each pair of keys, the secret box made once", async () => {
    const first = readConfig({ DB, SWITCHBOARD_ADMIN_KEY: ADMIN_KEY, SWITCHBOARD_SECRET_KEY: SECRET_KEY })
    const again = readConfig({ DB, SWITCHBOARD_ADMIN_KEY: ADMIN_KEY, SWITCHBOARD_SECRET_KEY: SECRET_KEY })
    if (!first.ok || !again.ok) throw new Error("expected both to be configured")
    expect(again.config).toBe(first.config)
    expect(again.config.secretBox()).toBe(first.config.secretBox())
    const box = await first.config.secretBox()
    expect(await box.open(await box.seal("s3cret", "aad"), "aad")).toEqual({ ok: true, plaintext: "s3cret" })
    const other = readConfig({ DB, SWITCHBOARD_ADMIN_KEY: `sb_${"b".repeat(43)}`, SWITCHBOARD_SECRET_KEY: SECRET_KEY })
    if (!other.ok) throw new Error("expected the other pair to be configured")
    expect(other.config).not.toBe(first.config)
    expect(other.config.adminKey).toBe(`sb_${"b".repeat(43)}`)
    // the D1 binding is checked on every read, whatever was read of the keys before
    expect(readConfig({ SWITCHBOARD_ADMIN_KEY: ADMIN_KEY, SWITCHBOARD_SECRET_KEY: SECRET_KEY } as Env).ok).toBe(false)
  })

  it("a missing admin key is named with the command that sets it", () => {
    const message = problemsOf({ DB, SWITCHBOARD_SECRET_KEY: SECRET_KEY })
    expect(message).toContain("SWITCHBOARD_ADMIN_KEY is not set (wrangler secret put SWITCHBOARD_ADMIN_KEY)")
  })

  it("a malformed admin key is named", () => {
    const message = problemsOf({ DB, SWITCHBOARD_ADMIN_KEY: "sb_short", SWITCHBOARD_SECRET_KEY: SECRET_KEY })
    expect(message).toContain("SWITCHBOARD_ADMIN_KEY must be sb_ followed by at least 32 base64url characters")
  })

  it("an admin key longer than any API key verifies is refused, naming the limit", () => {
    const tooLong = `sb_${"a".repeat(Auth.MAX_API_KEY_LENGTH - 2)}`
    expect(tooLong.length).toBe(Auth.MAX_API_KEY_LENGTH + 1)
    const message = problemsOf({ DB, SWITCHBOARD_ADMIN_KEY: tooLong, SWITCHBOARD_SECRET_KEY: SECRET_KEY })
    expect(message).toContain(`SWITCHBOARD_ADMIN_KEY must be at most ${Auth.MAX_API_KEY_LENGTH} characters`)
    const longest = `sb_${"a".repeat(Auth.MAX_API_KEY_LENGTH - 3)}`
    expect(readConfig({ DB, SWITCHBOARD_ADMIN_KEY: longest, SWITCHBOARD_SECRET_KEY: SECRET_KEY }).ok).toBe(true)
  })

  it("a missing secret key is named with the command that makes and sets it", () => {
    const message = problemsOf({ DB, SWITCHBOARD_ADMIN_KEY: ADMIN_KEY })
    expect(message).toContain(
      "SWITCHBOARD_SECRET_KEY is not set (openssl rand -base64 32 | wrangler secret put SWITCHBOARD_SECRET_KEY)",
    )
  })

  it("a malformed secret key is named", () => {
    const message = problemsOf({ DB, SWITCHBOARD_ADMIN_KEY: ADMIN_KEY, SWITCHBOARD_SECRET_KEY: "short" })
    expect(message).toMatch(/SWITCHBOARD_SECRET_KEY \S/)
    expect(message).not.toContain("SWITCHBOARD_ADMIN_KEY")
  })

  it("a missing D1 binding is named", () => {
    const message = problemsOf({ SWITCHBOARD_ADMIN_KEY: ADMIN_KEY, SWITCHBOARD_SECRET_KEY: SECRET_KEY })
    expect(message).toContain("the D1 binding DB is missing (wrangler.jsonc d1_databases)")
  })

  it("every problem at once, joined", () => {
    const message = problemsOf({})
    expect(message).toContain("DB is missing")
    expect(message).toContain("SWITCHBOARD_ADMIN_KEY is not set")
    expect(message).toContain("SWITCHBOARD_SECRET_KEY is not set")
  })
})
