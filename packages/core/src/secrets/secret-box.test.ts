import { describe, expect, it } from "vitest"
import { createSecretBox, encodeSecretKey, generateSecretKey, isSealed, parseSecretKey } from "./secret-box.js"
import { UNREADABLE_SECRET, createSealedCatalogStore, secretAad } from "./sealed-store.js"
import type { CatalogStore, SourceConfigUpdate, SourceRow } from "../catalog/rows.js"
import type { SourcePlugin } from "../seams.js"

describe("the secret box", () => {
  it("seals to enc:v1:<key id>:<iv>:<ciphertext> with a fresh IV each time, and opens what it sealed", async () => {
    const box = await createSecretBox(generateSecretKey())
    const a = await box.seal("s3cret-value", "aad")
    const b = await box.seal("s3cret-value", "aad")
    expect(a).toMatch(new RegExp(`^enc:v1:${box.keyId}:[A-Za-z0-9_-]{16}:[A-Za-z0-9_-]+$`))
    expect(a).not.toBe(b)
    expect(a).not.toContain("s3cret")
    expect(isSealed(a)).toBe(true)
    expect(await box.open(a, "aad")).toEqual({ ok: true, plaintext: "s3cret-value" })
    expect(await box.open(await box.seal("", "aad"), "aad")).toEqual({ ok: true, plaintext: "" })
  })

  it("refuses a value moved to another field or source (the AAD), changed at rest, or sealed with another key", async () => {
    const key = generateSecretKey()
    const box = await createSecretBox(key)
    const sealed = await box.seal("value", secretAad("one", ["transport", "env", "A"]))
    expect(await box.open(sealed, secretAad("two", ["transport", "env", "A"]))).toMatchObject({
      ok: false,
      reason: "corrupt",
    })
    expect(await box.open(sealed, secretAad("one", ["transport", "env", "B"]))).toMatchObject({
      ok: false,
      reason: "corrupt",
    })
    const flipped = sealed.slice(0, -2) + (sealed.at(-2) === "A" ? "B" : "A") + sealed.at(-1)
    expect(await box.open(flipped, secretAad("one", ["transport", "env", "A"]))).toMatchObject({
      ok: false,
      reason: "corrupt",
    })
    const other = await createSecretBox(generateSecretKey())
    expect(await other.open(sealed, secretAad("one", ["transport", "env", "A"]))).toEqual({
      ok: false,
      reason: "other_key",
      keyId: box.keyId,
    })
    expect(await box.open("enc:v1:nonsense", "x")).toEqual({ ok: false, reason: "malformed" })
    // the same key, however it is spelled, is the same box
    expect((await createSecretBox(key)).keyId).toBe(box.keyId)
  })

  it("parses a key in base64 or base64url, padded or not, and says what is wrong with any other", () => {
    const key = generateSecretKey()
    const b64 = encodeSecretKey(key)
    for (const text of [b64, b64.replace(/=+$/, ""), b64.replace(/\+/g, "-").replace(/\//g, "_"), ` ${b64}\n`]) {
      expect(parseSecretKey(text)).toEqual({ ok: true, key })
    }
    expect(parseSecretKey("not base64!")).toMatchObject({ ok: false, message: expect.stringContaining("not base64") })
    expect(parseSecretKey(btoa("short"))).toMatchObject({
      ok: false,
      message: expect.stringContaining("decodes to 5 bytes"),
    })
  })
})

describe("the sealed store", () => {
  const plugin = {
    kind: "k",
    secretFields: (config: any) => Object.keys(config?.env ?? {}).map((name) => ["env", name]),
  } as unknown as SourcePlugin
  const memoryStore = () => {
    const rows = new Map<string, SourceRow>()
    return {
      rows,
      store: {
        listSources: async () => [...rows.values()],
        getSource: async (namespace: string) => [...rows.values()].find((r) => r.namespace === namespace) ?? null,
        insertSource: async (row: SourceRow) => void rows.set(row.id, structuredClone(row)),
        updateSourceConfig: async ({ source: { id }, config, at, ifUpdatedAt }: SourceConfigUpdate) => {
          const row = rows.get(id)!
          if (ifUpdatedAt === undefined || row.updatedAt === ifUpdatedAt)
            rows.set(id, { ...row, config: structuredClone(config), updatedAt: at })
        },
      } as unknown as CatalogStore,
    }
  }
  const row = (namespace: string, env: Record<string, string>): SourceRow => ({
    id: namespace,
    namespace,
    kind: "k",
    config: { command: "x", env },
    status: "ready",
    lastSyncedAt: null,
    syncError: null,
    createdAt: 1,
    updatedAt: 1,
  })

  it("stores sealed values and reads back plaintext; seals plaintext an older build left; names sources it cannot open", async () => {
    const raw = memoryStore()
    const box = await createSecretBox(generateSecretKey())
    const store = createSealedCatalogStore({ store: raw.store, box, plugins: [plugin] })
    await store.insertSource(row("a", { TOKEN: "tok-a" }))
    expect(JSON.stringify(raw.rows.get("a"))).not.toContain("tok-a")
    expect((raw.rows.get("a")!.config as any).command).toBe("x")
    expect((await store.getSource("a"))!.config).toEqual({ command: "x", env: { TOKEN: "tok-a" } })

    // a plaintext value that merely looks sealed is sealed like any other
    await store.insertSource(row("looks", { TOKEN: "enc:v1:not:really:sealed" }))
    expect((raw.rows.get("looks")!.config as any).env.TOKEN).not.toBe("enc:v1:not:really:sealed")
    expect((await store.getSource("looks"))!.config).toEqual({
      command: "x",
      env: { TOKEN: "enc:v1:not:really:sealed" },
    })

    raw.rows.set("old", row("old", { TOKEN: "tok-old" }))
    expect((await store.getSource("old"))!.config).toEqual({ command: "x", env: { TOKEN: "tok-old" } })
    const other = createSealedCatalogStore({
      store: raw.store,
      box: await createSecretBox(generateSecretKey()),
      plugins: [plugin],
    })
    await other.insertSource(row("b", { TOKEN: "tok-b" }))
    // a value copied from another source does not open here
    raw.rows.set("c", {
      ...row("c", {}),
      config: { command: "x", env: { TOKEN: (raw.rows.get("a")!.config as any).env.TOKEN } },
    })

    const { sealed, unreadable } = await store.sealStoredSecrets(5)
    expect(sealed).toEqual(["old"])
    expect(JSON.stringify(raw.rows.get("old"))).not.toContain("tok-old")
    expect(unreadable.map((u) => u.namespace).sort()).toEqual(["b", "c"])
    const b = (await store.getSource("b"))!
    expect(b.config).toEqual({ command: "x", env: { TOKEN: UNREADABLE_SECRET } })
    expect(b.secretsError).toMatch(
      /^the secrets of source "b" \(env\.TOKEN\) cannot be read: they were encrypted with another key/,
    )
    expect((await store.getSource("c"))!.secretsError).toMatch(
      /do not decrypt with this server's key .*copied from another source/,
    )
  })
})
