/**
 * A spec split across files on its own origin is followed (through the host's fetch) into one catalog, its shared
 * schemas stored once; a reference to another origin, or from an inline spec, is refused by place.
 */
import { startPetsService } from "@switchboard/fixtures"
import type { PetsService } from "@switchboard/fixtures"
import { afterAll, beforeAll, expect, it } from "vitest"
import { createOpenApiPlugin } from "../src/index.js"

let pets: PetsService
beforeAll(async () => {
  pets = await startPetsService()
})
afterAll(() => pets.close())

const plugin = createOpenApiPlugin()
const handle = (url: string) => ({
  id: "s",
  namespace: "split",
  kind: "openapi",
  config: { spec: { url }, auth: {}, headers: {} },
})

it("follows references to other documents on the spec's origin, local ones inside them included", async () => {
  const discovered = await plugin.discover(handle(`${pets.url}/split/openapi.yaml`))
  if (!discovered.ok) throw new Error(discovered.message)
  const { tools, definitions } = discovered.discovery
  const getPet = tools.find((t) => t.name === "getPet")!
  expect(getPet.outputSchema).toEqual({ $ref: "#/$defs/schemas_Pet" })
  expect(Object.keys(definitions ?? {}).sort()).toEqual(["schemas_NewPet", "schemas_Pet"])
  expect(definitions?.schemas_Pet).toEqual({
    allOf: [
      { $ref: "#/$defs/schemas_NewPet" },
      {
        type: "object",
        required: ["id"],
        properties: { id: { type: "integer" }, friend: { $ref: "#/$defs/schemas_Pet" } },
      },
    ],
  })
  const listPets = tools.find((t) => t.name === "listPets")!
  expect(listPets.inputSchema).toEqual({ type: "object", properties: { limit: { type: "integer", minimum: 1 } } })
  expect(listPets.binding).toMatchObject({ server: `${pets.url}/`, params: [{ name: "limit", in: "query" }] })
  const raw = await plugin.invoke(
    handle(""),
    "getPet",
    { petId: 2 },
    { deadline: Date.now() + 5000, binding: getPet.binding },
  )
  expect(raw).toMatchObject({ ok: true, raw: { id: 2, name: "Rex" } })
})

it("refuses a reference to another origin, naming where it is, without fetching it", async () => {
  expect(await plugin.discover(handle(`${pets.url}/split/elsewhere.yaml`))).toEqual({
    ok: false,
    upstreamError: true,
    message:
      'paths./pets.get.responses.200.content.application/json.schema: $ref "http://127.0.0.2:9/schemas.yaml#/Pet" points at ' +
      "another origin (http://127.0.0.2:9): only documents on the spec's own origin are followed",
  })
})

it("names a referenced document that is not there", async () => {
  expect(await plugin.discover(handle(`${pets.url}/split/broken.yaml`))).toMatchObject({
    ok: false,
    message: `${pets.url}/split/nothing.yaml: fetching the spec answered HTTP 404: 404 Not Found`,
  })
})
