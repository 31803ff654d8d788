/**
 * Specs a server refuses, through the API: each answer names the place, and a failed sync loses nothing already
 * in the catalog (the tools stay, and calls still work). A changed spec re-stamps the source's rows in one sync,
 * and an operation that was removed disappears.
 */
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { PETS_SPEC_YAML, startPetsService } from "@switchboard/fixtures"
import type { PetsService } from "@switchboard/fixtures"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startTestServer } from "../support/helpers.js"
import type { TestServer } from "../support/helpers.js"

/** the spec the swap server answers with; `big` answers 50 MB */
let specText: string | "big" = PETS_SPEC_YAML
const swap = createServer((_req, res) => {
  res.writeHead(200, { "content-type": "application/yaml" })
  if (specText !== "big") return void res.end(specText)
  const chunk = Buffer.alloc(1024 * 1024, " ")
  let left = 50
  const more = () => {
    while (left-- > 0) if (!res.write(chunk)) return void res.once("drain", more)
    res.end()
  }
  res.on("close", () => (left = 0))
  res.write("openapi: 3.0.3\npaths: {}\n#")
  more()
})
let specUrl: string
let server: TestServer
let pets: PetsService

beforeAll(async () => {
  await new Promise<void>((resolve) => swap.listen(0, "127.0.0.1", resolve))
  specUrl = `http://127.0.0.1:${(swap.address() as AddressInfo).port}/openapi.yaml`
  ;[server, pets] = await Promise.all([startTestServer(), startPetsService()])
  const added = await server.request("POST", "/v1/sources", {
    namespace: "pets",
    kind: "openapi",
    spec: { url: specUrl },
    baseUrl: pets.url,
  })
  expect(added.status, JSON.stringify(added.body)).toBe(201)
}, 60_000)
afterAll(async () => {
  await server?.stop()
  await pets?.close()
  await new Promise<void>((resolve) => swap.close(() => resolve()))
})

const toolNames = async () =>
  ((await server.request("GET", "/v1/tools?namespace=pets")).body.tools as { name: string }[]).map((t) => t.name)

describe("a sync of a spec that cannot be used fails by name and keeps the catalog", () => {
  const cases: [string, string | "big", RegExp][] = [
    [
      "not JSON or YAML",
      "openapi: [3.0\n  paths: {",
      /^sync of "pets" failed: spec\.url: the spec is neither JSON nor YAML: .* at line \d+/,
    ],
    [
      "a dangling $ref",
      PETS_SPEC_YAML.replace('$ref: "#/components/parameters/limit"', '$ref: "#/components/parameters/gone"'),
      /^sync of "pets" failed: paths\.\/pets\.get\.parameters\[3\]: \$ref "#\/components\/parameters\/gone" points at nothing$/,
    ],
    [
      "a 50 MB spec",
      "big",
      /^sync of "pets" failed: spec\.url: the spec is larger than 40 MiB, the most this server reads$/,
    ],
    [
      "colliding parameters",
      PETS_SPEC_YAML.replace("        - name: ids\n", "        - name: tags\n"),
      new RegExp(
        String.raw`^sync of "pets" failed: paths\./pets\.get\.parameters\[1\]: parameter "tags" in query is declared twice ` +
          String.raw`\(also at paths\./pets\.get\.parameters\[0\]\)$`,
      ),
    ],
  ]
  it.each(cases)("%s", async (_name, text, message) => {
    const before = await toolNames()
    specText = text
    try {
      const synced = await server.request("POST", "/v1/sources/pets/sync")
      expect(synced.status).toBe(502)
      expect(synced.body.error.code).toBe("upstream_error")
      expect(synced.body.error.message).toMatch(message)
      expect(await toolNames()).toEqual(before)
      const source = (await server.request("GET", "/v1/sources")).body.sources[0]
      expect(source).toMatchObject({ status: "error", toolCount: 20 })
      const called = await server.execute("return (await tools.pets.getPet({ petId: 1 })).data.name")
      expect(called.result).toBe("Tom")
    } finally {
      specText = PETS_SPEC_YAML
    }
  })
})

it("re-stamps every row of a changed spec in one sync, and drops a removed operation", async () => {
  specText = PETS_SPEC_YAML.replace("  /tree:\n", "  /gone-tree:\n").replace(
    "operationId: getTree",
    "operationId: getTree2",
  )
  try {
    const before = (await server.request("GET", "/v1/sources")).body.sources[0].lastSyncedAt
    const synced = await server.request("POST", "/v1/sources/pets/sync")
    expect(synced.status).toBe(200)
    const names = await toolNames()
    expect(names).toContain("getTree2")
    expect(names).not.toContain("getTree")
    expect(names).toHaveLength(20)
    const after = (await server.request("GET", "/v1/sources")).body.sources[0]
    expect(after.status).toBe("ready")
    expect(Date.parse(after.lastSyncedAt)).toBeGreaterThan(Date.parse(before))
    const called = await server.execute("return (await tools.pets.getTree()).error.code")
    expect(called.result).toBe("tool_not_found")
  } finally {
    specText = PETS_SPEC_YAML
  }
})

it("refuses servers at a private address on a server that refuses them, and adds nothing", async () => {
  const refusing = await startTestServer({ refusePrivateSources: true })
  try {
    const added = await refusing.request("POST", "/v1/sources", {
      namespace: "internal",
      kind: "openapi",
      spec: { inline: PETS_SPEC_YAML.replace("  - url: /", "  - url: http://192.168.1.20/api") },
    })
    expect(added.status).toBe(403)
    expect(added.body.error.code).toBe("private_address")
    expect(added.body.error.message).toMatch(
      /^servers\[0\]\.url of listPets points at "192\.168\.1\.20", a private address/,
    )
    expect((await refusing.request("GET", "/v1/sources")).body.sources).toEqual([])
  } finally {
    await refusing.stop()
  }
})
