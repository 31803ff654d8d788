/**
 * The store contract's policy rules, run by every implementation within catalogStoreContract: rules written through
 * the API stay until deleted; the config file's are replaced whole, in one batch.
 */
import { beforeEach, expect, it } from "vitest"
import type { PolicyRow } from "../src/catalog/rows.js"
import type { CatalogStore } from "../src/index.js"
import type { StoreUnderTest } from "./catalog-store.shared.js"

export const rule = (id: string, extra: Partial<PolicyRow> = {}): PolicyRow => ({
  id,
  pattern: "github.delete_*",
  source: null,
  annotation: null,
  action: "require_approval",
  reason: "deleting needs a person",
  origin: "api",
  createdAt: 1_700_000_000_000,
  ...extra,
})

export const catalogStorePoliciesContract = (subject: () => StoreUnderTest) => {
  let store: CatalogStore
  beforeEach(() => {
    store = subject().store
  })
  const ids = async () => (await store.listPolicies()).map((row) => row.id)

  it("stores rules and lists them oldest first, exactly; deletes one, and answers false for one not there", async () => {
    const rules = [
      rule("r2", { createdAt: 2, pattern: null, source: "fs", annotation: "destructiveHint", action: "block" }),
      rule("r1", { createdAt: 1, reason: null }),
      rule("r3", { createdAt: 2, pattern: "*", action: "allow", reason: "é \uD83D\uDE00" }),
    ]
    for (const row of rules) await store.insertPolicy(row)
    expect(await store.listPolicies()).toEqual([rules[1], rules[0], rules[2]])
    await expect(store.insertPolicy(rule("r1"))).rejects.toThrow()
    expect(await store.deletePolicy("r2")).toBe(true)
    expect(await store.deletePolicy("r2")).toBe(false)
    expect(await store.deletePolicy("nope")).toBe(false)
    expect(await ids()).toEqual(["r1", "r3"])
  })

  it("replaceConfigPolicies replaces every config rule and keeps the api rules", async () => {
    await store.insertPolicy(rule("api-1", { createdAt: 1 }))
    await store.replaceConfigPolicies([
      rule("cfg-a", { origin: "config", createdAt: 2 }),
      rule("cfg-b", { origin: "config", createdAt: 3 }),
    ])
    await store.insertPolicy(rule("api-2", { createdAt: 4 }))
    expect(await ids()).toEqual(["api-1", "cfg-a", "cfg-b", "api-2"])

    // 150 rules: more than one statement where a statement binds at most 100 parameters (D1)
    const next = Array.from({ length: 150 }, (_, i) =>
      rule(`cfg-${String(i).padStart(3, "0")}`, { origin: "config", createdAt: 10 }),
    )
    await store.replaceConfigPolicies(next)
    expect(await ids()).toEqual(["api-1", "api-2", ...next.map((row) => row.id)])
    expect((await store.listPolicies()).find((row) => row.id === "cfg-007")).toEqual(next[7])

    await store.replaceConfigPolicies([])
    expect(await ids()).toEqual(["api-1", "api-2"])
  })

  it("a replacement that fails part way changes nothing, and one holding an api rule is refused", async () => {
    await store.insertPolicy(rule("api-1"))
    await store.replaceConfigPolicies([rule("cfg-a", { origin: "config" })])
    const before = await store.listPolicies()
    // the second rule's id is taken by the api rule, which stays: its insert fails after the delete ran
    await expect(
      store.replaceConfigPolicies([rule("cfg-b", { origin: "config" }), rule("api-1", { origin: "config" })]),
    ).rejects.toThrow()
    expect(await store.listPolicies()).toEqual(before)
    await expect(store.replaceConfigPolicies([rule("x", { origin: "api" })])).rejects.toThrow(RangeError)
    expect(await store.listPolicies()).toEqual(before)
  })
}
