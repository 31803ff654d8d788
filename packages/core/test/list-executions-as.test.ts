/** A caller lists exactly the executions it may read one by one (listExecutionsPage, canReadExecution), on a real store. */
import { expect, it } from "vitest"
import { OPEN_CALLER, canReadExecution, listExecutionsPage } from "../src/auth/scopes.js"
import type { Caller } from "../src/auth/scopes.js"
import type { ExecutionListQuery } from "../src/catalog/rows.js"
import { timeOrderedId } from "../src/index.js"
import { run } from "./catalog-store.shared.js"
import { openSqliteStore } from "./sqlite-store.js"

it("a key lists only its own executions whatever it asks; admin (and a server without keys) lists every one", async () => {
  const { store, close } = openSqliteStore()
  try {
    const owners = ["k1", "k2", null, "k1", "a"]
    const executions = owners.map((keyId) => ({ ...run(timeOrderedId()), keyId }))
    await store.recordBatch(executions.map((execution) => ({ execution, calls: [] })))
    const newest = executions.map((e) => ({ id: e.id, keyId: e.keyId })).reverse()
    const listed = async (caller: Caller, query: Partial<ExecutionListQuery> = {}) =>
      (await listExecutionsPage(store, caller, { limit: 10, ...query })).executions.map((e) => ({
        id: e.id,
        keyId: e.keyId,
      }))

    const callers: Caller[] = [
      OPEN_CALLER,
      { keyId: "a", scope: "admin" },
      { keyId: "k1", scope: "read" },
      { keyId: "k2", scope: "execute" },
      { keyId: "k3", scope: "read" },
      { keyId: "k1", scope: null },
      { keyId: null, scope: "read" },
      { keyId: null, scope: null },
    ]
    for (const caller of callers)
      expect(await listed(caller), JSON.stringify(caller)).toEqual(
        newest.filter((e) => canReadExecution(caller, e.keyId)),
      )
    expect(await listed(OPEN_CALLER)).toEqual(newest)
    expect(await listed({ keyId: "k1", scope: "read" })).toEqual(newest.filter((e) => e.keyId === "k1"))
    // a key that asks for another's gets its own; admin gets the one it asked for
    expect(await listed({ keyId: "k1", scope: "read" }, { keyId: "k2" })).toEqual(
      newest.filter((e) => e.keyId === "k1"),
    )
    expect(await listed({ keyId: "a", scope: "admin" }, { keyId: "k2" })).toEqual(
      newest.filter((e) => e.keyId === "k2"),
    )
    expect(await listed({ keyId: "k1", scope: "read" }, { limit: 1 })).toEqual([newest[1]])
  } finally {
    close()
  }
})
