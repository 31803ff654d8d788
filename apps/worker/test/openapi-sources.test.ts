/**
 * OpenAPI sources on the Worker: the deploy bundle in workerd (Miniflare, local D1) adds the pets fixture service's
 * spec, describes and calls its operations with the source's credentials, as the Node host does, and syncs GitHub's
 * whole spec. The fixture services run in this Node process on loopback.
 */
import { PETS_CREDENTIALS, startGithubService, startPetsService } from "@switchboard/fixtures"
import type { GithubService, PetsService } from "@switchboard/fixtures"
import { afterAll, beforeAll, expect, it } from "vitest"
import { TEST_ADMIN_KEY, startWorker } from "../local/miniflare-worker.js"
import type { RunningWorker } from "../local/miniflare-worker.js"

let worker: RunningWorker
let pets: PetsService
let github: GithubService

const request = async (method: string, path: string, body?: unknown) => {
  const response = await fetch(`${worker.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${TEST_ADMIN_KEY}`, ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  })
  return { status: response.status, body: (await response.json()) as any }
}

beforeAll(async () => {
  ;[worker, pets, github] = await Promise.all([startWorker(), startPetsService(), startGithubService()])
  const added = await request("POST", "/v1/sources", {
    namespace: "pets",
    kind: "openapi",
    spec: { url: `${pets.url}/openapi.yaml` },
    auth: { bearerAuth: PETS_CREDENTIALS.bearer, apiKeyQuery: PETS_CREDENTIALS.apiKey },
  })
  expect(added.status, JSON.stringify(added.body)).toBe(201)
}, 60_000)
afterAll(async () => {
  await worker?.close()
  await pets?.close()
  await github?.close()
})

it("stamps the rows direct and describes an operation's declared data", async () => {
  const tool = (await request("GET", "/v1/tools/pets.getPet")).body.tool
  expect(tool).toMatchObject({ resultEncoding: "direct", outputSource: "declared" })
  expect(tool.typescript).toContain("getPet(args: Pets_GetPet_Input): Promise<ToolResult<Pets_GetPet_Data>>")
})

it("calls operations with their parameters, bodies and credentials, and fails non-2xx answers by status", async () => {
  const executed = await request("POST", "/v1/execute", {
    code: `
      const listed = await tools.pets.listPets({ tags: ["loud"], filter: { kind: "dog" } })
      const created = await tools.pets.createPet({ name: "Kit", kind: "cat" })
      const bearer = await tools.pets.whoamiBearer()
      const query = await tools.pets.whoamiQueryKey()
      const missing = await tools.pets.getPet({ petId: 42 })
      const notes = await tools.pets.getPetNotes({ petId: 3 })
      return {
        listed: listed.data.map((p) => p.name),
        created: [created.meta.status, created.data.name],
        schemes: [bearer.data.scheme, query.data.scheme],
        missing: [missing.error.code, missing.error.data.code],
        notes: notes.data,
      }`,
  })
  expect(executed.status).toBe(200)
  expect(executed.body.result).toEqual({
    listed: ["Rex"],
    created: [201, "Kit"],
    schemes: ["bearer", "apiKeyQuery"],
    missing: ["http_404", "not_found"],
    notes: "notes for pet 3\nlikes: naps",
  })
})

it("syncs GitHub's whole spec and calls repos/get against the loopback fixture", async () => {
  const added = await request("POST", "/v1/sources", {
    namespace: "github",
    kind: "openapi",
    spec: { url: `${github.url}/openapi.json` },
    baseUrl: github.url,
  })
  expect(added.status, JSON.stringify(added.body)).toBe(201)
  expect(added.body.source.toolCount).toBe(1223)
  const described = (await request("GET", `/v1/tools/${encodeURIComponent("github.repos/get")}`)).body.tool
  expect(described.outputSource).toBe("declared")
  const executed = await request("POST", "/v1/execute", {
    code: 'return (await tools.github["repos/get"]({ owner: "octocat", repo: "hello" })).data.full_name',
  })
  expect(executed.body.result).toBe("octocat/hello")
}, 120_000)
