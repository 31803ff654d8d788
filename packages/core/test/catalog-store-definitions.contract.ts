/**
 * Shared schema definitions (Discovery.definitions), run by every implementation within catalogStoreContract:
 * stored once per source, given back to one tool as the `$defs` its schemas reach, replaced with the tools at a
 * sync, and gone with the source. Tool bindings are stored and read back as given.
 */
import { beforeEach, expect, it } from "vitest"
import type { CatalogStore } from "../src/index.js"
import { source, tool } from "./catalog-store.shared.js"
import type { StoreUnderTest } from "./catalog-store.shared.js"

const definitions = {
  Repo: { type: "object", properties: { owner: { $ref: "#/$defs/User" }, parent: { $ref: "#/$defs/Repo" } } },
  User: { type: "object", properties: { login: { type: "string" } } },
  Unused: { type: "string" },
  // more definitions than D1 binds in one statement
  ...Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`Filler${i}`, { type: "integer", minimum: i }])),
}

export const catalogStoreDefinitionsContract = (subject: () => StoreUnderTest) => {
  let store: CatalogStore
  beforeEach(() => {
    store = subject().store
  })

  it("gives one tool back with the definitions its schemas reach, cycles included, and keeps listings lean", async () => {
    await store.insertSource(source("api"))
    const getRepo = tool("get_repo", {
      inputSchema: { type: "object", properties: { who: { $ref: "#/$defs/User" } } },
      outputSchema: { $ref: "#/$defs/Repo" },
      binding: { method: "get", path: "/repos/{id}" },
    })
    await store.applySync({
      sourceId: "id-api",
      tools: [getRepo, tool("plain")],
      encoding: "direct",
      syncedAt: 1,
      definitions,
    })
    const read = await store.getTool("api", "get_repo")
    expect(read?.binding).toEqual({ method: "get", path: "/repos/{id}" })
    expect(read?.inputSchema).toEqual({
      type: "object",
      properties: { who: { $ref: "#/$defs/User" } },
      $defs: { User: definitions.User },
    })
    expect(read?.outputSchema).toEqual({
      $ref: "#/$defs/Repo",
      $defs: { Repo: definitions.Repo, User: definitions.User },
    })
    expect((await store.getTool("api", "plain"))?.binding).toBeNull()
    const [listed] = await store.listTools({ namespace: "api" })
    expect(listed?.outputSchema).toEqual({ $ref: "#/$defs/Repo" })
    expect((await store.withDefinitions([listed!]))[0]?.outputSchema).toEqual(read?.outputSchema)
  })

  it("replaces the definitions with the tools at a sync, and drops them with the source", async () => {
    await store.insertSource(source("api"))
    const reaching = (name: string) => tool("t", { outputSchema: { $ref: `#/$defs/${name}` } })
    await store.applySync({
      sourceId: "id-api",
      tools: [reaching("Repo")],
      encoding: "direct",
      syncedAt: 1,
      definitions,
    })
    await store.applySync({
      sourceId: "id-api",
      tools: [reaching("User")],
      encoding: "direct",
      syncedAt: 2,
      definitions: { User: { type: "string" } },
    })
    expect((await store.getTool("api", "t"))?.outputSchema).toEqual({
      $ref: "#/$defs/User",
      $defs: { User: { type: "string" } },
    })
    await store.applySync({
      sourceId: "id-api",
      tools: [reaching("Repo")],
      encoding: "direct",
      syncedAt: 3,
      definitions: { User: { type: "string" } },
    })
    // a definition the sync no longer has is not there: the reference stays as it is
    expect((await store.getTool("api", "t"))?.outputSchema).toEqual({ $ref: "#/$defs/Repo" })
    await store.deleteSource("id-api")
    await store.insertSource(source("api"))
    await store.applySync({ sourceId: "id-api", tools: [reaching("User")], encoding: "direct", syncedAt: 4 })
    expect((await store.getTool("api", "t"))?.outputSchema).toEqual({ $ref: "#/$defs/User" })
  })

  it("leaves a schema's own $defs to it", async () => {
    await store.insertSource(source("mcp"))
    const own = { $ref: "#/$defs/User", $defs: { User: { type: "number" } } }
    await store.applySync({
      sourceId: "id-mcp",
      tools: [tool("t", { outputSchema: own })],
      encoding: "mcp-call-tool-result-v2",
      syncedAt: 1,
      definitions,
    })
    expect((await store.getTool("mcp", "t"))?.outputSchema).toEqual(own)
  })
}
