/** The catalog lives in the SQLite file: a restarted server has it without a re-sync. */
import { expect, it } from "vitest"
import { join } from "node:path"
import { fixtureCommand } from "@switchboard/fixtures"
import { startTestServer, tempDir } from "../support/helpers.js"

it("a restarted server on the same file still has its catalog and can call it", async () => {
  const dir = tempDir()
  const dbPath = join(dir.dir, "nested", "catalog.db")
  try {
    const first = await startTestServer({ dbPath, keepDb: true, allowStdio: true })
    expect(
      (
        await first.request("POST", "/v1/sources", {
          namespace: "demo",
          kind: "mcp",
          transport: { type: "stdio", ...fixtureCommand("demo-server") },
        })
      ).status,
    ).toBe(201)
    const before = await first.request("GET", "/v1/sources")
    await first.stop()

    const second = await startTestServer({ dbPath, keepDb: true, allowStdio: true })
    try {
      const after = await second.request("GET", "/v1/sources")
      expect(after.body.sources).toEqual(before.body.sources) // same lastSyncedAt: no re-sync happened
      expect((await second.request("GET", "/v1/tools?namespace=demo")).body.tools.length).toBe(
        before.body.sources[0].toolCount,
      )
      const response = await second.execute(`return (await tools.demo.add({ a: 2, b: 3 })).data`)
      expect(response.result).toEqual({ sum: 5 })
    } finally {
      await second.stop()
    }
  } finally {
    dir.remove()
  }
}, 30_000)
