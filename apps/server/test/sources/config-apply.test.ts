/**
 * switchboard.config.json applied at boot, against real servers on loopback sharing one SQLite file, with real MCP
 * upstreams: the contract server over HTTP and the contract stdio fixture.
 */
import { join } from "node:path"
import { fixtureCommand, startContractHttpServer } from "@switchboard/fixtures"
import type { ContractHttpServer } from "@switchboard/fixtures"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { applyConfigSources } from "../../src/config/apply-config.js"
import type { ApplyReport } from "../../src/config/apply-config.js"
import type { ApplyOptions } from "../../src/config/apply-config.js"
import { readConfigText } from "../../src/config/config-file.js"
import { syncProgressLine } from "../../src/commands/sync-progress-line.js"
import { memoryLogger, startTestServer, tempDir } from "../support/helpers.js"

const env = { SB_TEST_TOKEN: "tok-1234567890" }

interface FileSource {
  namespace: string
  kind: "mcp"
  transport: Record<string, unknown>
}

describe("switchboard.config.json applied at boot", () => {
  const dir = tempDir()
  const dbPath = join(dir.dir, "catalog.db")
  let first: ContractHttpServer
  let second: ContractHttpServer
  const stdio = fixtureCommand("contract-stdio")

  beforeAll(async () => {
    first = await startContractHttpServer()
    second = await startContractHttpServer()
  })
  afterAll(async () => {
    await first.close().catch(() => undefined)
    await second.close()
    dir.remove()
  })

  const web = (url: string, headers: Record<string, string>): FileSource => ({
    namespace: "web",
    kind: "mcp",
    transport: { type: "http", url, headers },
  })
  const local: FileSource = {
    namespace: "local",
    kind: "mcp",
    transport: { type: "stdio", ...stdio, env: { LOCAL_TOKEN: "${SB_TEST_TOKEN}" } },
  }

  /** Boots a server on the shared file with this file's sources, reads its catalog, and stops it. */
  const boot = async (
    sources: FileSource[],
    options: { prune?: boolean; call?: string; progress?: ApplyOptions["progress"] } = {},
  ) => {
    const loaded = readConfigText("switchboard.config.json", JSON.stringify({ sources }, null, 2), env)
    if (!loaded.ok) throw new Error(loaded.problems.join("\n"))
    const log = memoryLogger()
    let report: ApplyReport | undefined
    const server = await startTestServer({
      dbPath,
      keepDb: true,
      runtime: "in-thread",
      allowStdio: true,
      logger: log.logger,
      beforeListen: async (host) => {
        report = await applyConfigSources(host, loaded.config.sources ?? [], {
          prune: options.prune,
          logger: log.logger,
          progress: options.progress,
        })
      },
    })
    try {
      const listed = (await server.request("GET", "/v1/sources")).body.sources as any[]
      const byName = Object.fromEntries(listed.map((s) => [s.namespace, s]))
      const called = options.call ? await server.execute(options.call) : undefined
      return { report: report!, sources: byName, called, lines: log.lines }
    } finally {
      await server.stop()
    }
  }

  let synced: Record<string, string> = {}

  it("adds every source of the file to an empty catalog, with ${VAR} read from the environment", async () => {
    const { report, sources } = await boot([web(first.url, { authorization: "Bearer ${SB_TEST_TOKEN}" }), local])
    expect(report.added).toEqual(["web", "local"])
    expect(report.failed).toEqual([])
    for (const ns of ["web", "local"]) {
      expect(sources[ns].status).toBe("ready")
      expect(sources[ns].toolCount).toBeGreaterThan(0)
    }
    expect(sources.web.config.transport.headers).toEqual({ authorization: "<redacted>" })
    synced = { web: sources.web.lastSyncedAt, local: sources.local.lastSyncedAt }
  }, 60_000)

  it("keeps an unchanged source as it is: no re-sync", async () => {
    await new Promise((resolve) => setTimeout(resolve, 20))
    const { report, sources } = await boot([web(first.url, { authorization: "Bearer ${SB_TEST_TOKEN}" }), local])
    expect(report.unchanged).toEqual(["web", "local"])
    expect(report.added.concat(report.updated, report.replaced)).toEqual([])
    expect(sources.web.lastSyncedAt).toBe(synced.web)
    expect(sources.local.lastSyncedAt).toBe(synced.local)
  }, 60_000)

  it("updates and re-syncs a source whose headers changed, and one whose url changed", async () => {
    await new Promise((resolve) => setTimeout(resolve, 20))
    const headers = { authorization: "Bearer ${SB_TEST_TOKEN}", "x-team": "ops" }
    const changed = await boot([web(first.url, headers), local])
    expect(changed.report.updated).toEqual(["web"])
    expect(changed.report.unchanged).toEqual(["local"])
    expect(changed.sources.web.config.transport.headers).toEqual({
      authorization: "<redacted>",
      "x-team": "<redacted>",
    })
    expect(Date.parse(changed.sources.web.lastSyncedAt)).toBeGreaterThan(Date.parse(synced.web!))
    expect(changed.sources.local.lastSyncedAt).toBe(synced.local)

    // the first upstream goes away: only a source that now points at the second answers
    await first.close()
    const moved = await boot([web(second.url, headers), local], {
      call: 'const r = await tools.web.prose({ name: "Ada" }); return r.ok',
    })
    expect(moved.report.updated).toEqual(["web"])
    expect(moved.sources.web.status).toBe("ready")
    // a URL at another origin drops stored headers unless they are sent again: the file's are
    expect(moved.sources.web.config.transport.headers).toEqual({ authorization: "<redacted>", "x-team": "<redacted>" })
    expect(moved.called.result).toBe(true)
  }, 60_000)

  it("keeps a source the file no longer names unless --prune, which removes it", async () => {
    const headers = { authorization: "Bearer ${SB_TEST_TOKEN}", "x-team": "ops" }
    const kept = await boot([web(second.url, headers)])
    expect(kept.report.kept).toEqual(["local"])
    expect(Object.keys(kept.sources).sort()).toEqual(["local", "web"])
    expect(kept.lines.some((l) => l.message.includes("kept") && l.details?.namespace === "local")).toBe(true)

    const pruned = await boot([web(second.url, headers)], { prune: true })
    expect(pruned.report.removed).toEqual(["local"])
    expect(Object.keys(pruned.sources)).toEqual(["web"])
  }, 60_000)

  it("changes a source's transport type by removing and adding it", async () => {
    const replaced = await boot([{ ...local, namespace: "web" }], { prune: true })
    expect(replaced.report.replaced).toEqual(["web"])
    expect(replaced.sources.web.config.transport.type).toBe("stdio")
    expect(replaced.sources.web.status).toBe("ready")
  }, 60_000)

  it("starts without a source whose upstream cannot be reached, and reports it", async () => {
    const down = { ...web("http://127.0.0.1:9/mcp", {}), namespace: "down" }
    const { report, sources } = await boot([{ ...local, namespace: "web" }, down])
    expect(report.unchanged).toEqual(["web"])
    expect(report.failed.map((f) => f.namespace)).toEqual(["down"])
    // the server answered (this listing came from it), without the source
    expect(Object.keys(sources)).toEqual(["web"])
  }, 60_000)

  it("follows each sync it makes with a progress line: an add, and an update's re-sync", async () => {
    const many = (count: number): FileSource => ({
      namespace: "many",
      kind: "mcp",
      transport: { type: "stdio", ...fixtureCommand("many-tools"), env: { TOOL_COUNT: String(count) } },
    })
    const lines: string[] = []
    // a pipe, not a terminal: one line a sync
    const progress = (namespace: string) =>
      syncProgressLine(namespace, { isTTY: false, write: (text: string) => (lines.push(text), true) })
    expect((await boot([many(1_200)], { prune: true, progress })).report.added).toEqual(["many"])
    expect((await boot([many(1_250)], { prune: true, progress })).report.updated).toEqual(["many"])
    expect((await boot([many(1_250)], { prune: true, progress })).report.unchanged).toEqual(["many"])
    expect(lines).toEqual([
      "syncing many: 12 pages of tools/list read, 1200 tools\n",
      "syncing many: 13 pages of tools/list read, 1250 tools\n",
    ])
  }, 90_000)
})
