/**
 * An OpenAPI source through the config file (added, kept, its credentials updated, replaced when its spec or base
 * changes) and through the CLI (`sources add --openapi`), against the pets fixture service on loopback.
 */
import { join } from "node:path"
import { writeFileSync } from "node:fs"
import { PETS_CREDENTIALS, startPetsService } from "@switchboard/fixtures"
import type { PetsService } from "@switchboard/fixtures"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { applyConfigSources } from "../../src/config/apply-config.js"
import type { ApplyReport } from "../../src/config/apply-config.js"
import { readConfigText } from "../../src/config/config-file.js"
import { memoryLogger, startTestServer, tempDir } from "../support/helpers.js"
import { runCli } from "../support/run-cli.js"

const env = { SB_PETS_TOKEN: PETS_CREDENTIALS.bearer }
let pets: PetsService
const petsService = () => pets.url
const dir = tempDir()

beforeAll(async () => {
  pets = await startPetsService()
})
afterAll(async () => {
  await pets.close()
  dir.remove()
})

describe("an openapi source in switchboard.config.json", () => {
  const dbPath = join(dir.dir, "config.db")
  const boot = async (source: Record<string, unknown>, call?: string) => {
    const loaded = readConfigText("switchboard.config.json", JSON.stringify({ sources: [source] }), env)
    if (!loaded.ok) throw new Error(loaded.problems.join("\n"))
    const log = memoryLogger()
    let report: ApplyReport | undefined
    const server = await startTestServer({
      dbPath,
      keepDb: true,
      runtime: "in-thread",
      logger: log.logger,
      beforeListen: async (host) => {
        report = await applyConfigSources(host, loaded.config.sources ?? [], { logger: log.logger })
      },
    })
    try {
      const [listed] = (await server.request("GET", "/v1/sources")).body.sources
      return { report: report!, source: listed, called: call ? (await server.execute(call)).result : undefined }
    } finally {
      await server.stop()
    }
  }
  const petsSource = (auth: Record<string, string>, extra: Record<string, unknown> = {}) => ({
    namespace: "pets",
    kind: "openapi",
    spec: { url: `${petsService()}/openapi.yaml` },
    auth,
    ...extra,
  })

  it("adds it, keeps it unchanged, updates its credentials and replaces it when its base changes", async () => {
    const added = await boot(
      petsSource({ bearerAuth: "wrong-token" }),
      "return (await tools.pets.whoamiBearer()).error?.code",
    )
    expect(added.report.added).toEqual(["pets"])
    expect(added.source).toMatchObject({ kind: "openapi", status: "ready", toolCount: 20 })
    expect(added.source.config.auth).toEqual({ bearerAuth: "<redacted>" })
    expect(added.called).toBe("http_401")

    expect((await boot(petsSource({ bearerAuth: "wrong-token" }))).report.unchanged).toEqual(["pets"])

    const updated = await boot(
      petsSource({ bearerAuth: "${SB_PETS_TOKEN}" }),
      "return (await tools.pets.whoamiBearer()).data",
    )
    expect(updated.report.updated).toEqual(["pets"])
    expect(updated.called).toEqual({ scheme: "bearer", user: "pets" })

    const replaced = await boot(petsSource({ bearerAuth: "${SB_PETS_TOKEN}" }, { baseUrl: petsService() }))
    expect(replaced.report.replaced).toEqual(["pets"])
  }, 60_000)
})

describe("switchboard sources add --openapi", () => {
  it("adds a source from a spec's URL, or from a file's text with --base-url", async () => {
    const db = join(dir.dir, "cli.db")
    expect((await runCli(["init", "--db", db])).status).toBe(0)
    const byUrl = await runCli(["sources", "add", "pets", "--openapi", `${pets.url}/openapi.yaml`, "--db", db])
    expect(byUrl.stderr).not.toMatch(/error/i)
    expect(byUrl).toMatchObject({ status: 0, stdout: "added pets: 20 tools\n" })

    const file = join(dir.dir, "pets.yaml")
    writeFileSync(file, await (await fetch(`${pets.url}/openapi.yaml`)).text())
    const byFile = await runCli([
      "sources",
      "add",
      "local",
      "--openapi",
      `@${file}`,
      "--base-url",
      pets.url,
      "--db",
      db,
    ])
    expect(byFile).toMatchObject({ status: 0, stdout: "added local: 20 tools\n" })

    const listed = await runCli(["sources", "list", "--json", "--db", db])
    const sources = JSON.parse(listed.stdout).sources
    expect(sources.map((s: { namespace: string; kind: string }) => [s.namespace, s.kind])).toEqual([
      ["local", "openapi"],
      ["pets", "openapi"],
    ])
    expect(sources[0].config.spec.inline).toMatch(/^\(\d+ characters\)$/)

    const called = await runCli(["call", "pets.getPet", '{"petId": 1}', "--db", db])
    expect(called.status).toBe(0)
    expect(JSON.parse(called.stdout)).toMatchObject({ id: 1, name: "Tom" })
  }, 60_000)
})
