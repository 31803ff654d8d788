/** What an answer may be before it is refused unread: bytes of JSON or text, bytes of binary, JSON keys and elements. */
import { PETS_SPEC_YAML, startPetsService } from "@switchboard/fixtures"
import type { PetsService } from "@switchboard/fixtures"
import { afterAll, beforeAll, expect, it } from "vitest"
import { compileSpec, createOpenApiPlugin, parseSpec } from "../src/index.js"

let pets: PetsService
beforeAll(async () => {
  pets = await startPetsService()
})
afterAll(() => pets.close())

const tools = compileSpec(parseSpec(PETS_SPEC_YAML, "spec.inline")).tools
const call = (options: Parameters<typeof createOpenApiPlugin>[0], name: string, args: Record<string, unknown>) => {
  const handle = { id: "s", namespace: "pets", kind: "openapi", config: { baseUrl: pets.url, auth: {}, headers: {} } }
  const binding = tools.find((t) => t.name === name)!.binding
  return createOpenApiPlugin(options).invoke(handle, name, args, { deadline: Date.now() + 5000, binding })
}

it("refuses a JSON or text answer past maxResponseBytes, a binary one past maxBinaryBytes", async () => {
  expect(await call({ maxResponseBytes: 100 }, "listPets", {})).toMatchObject({
    ok: false,
    code: "tool_result_too_large",
    message: expect.stringMatching(/^the answer's body is larger than 100 bytes; it was not read/),
  })
  expect(await call({ maxResponseBytes: 100 }, "getPetNotes", { petId: 1 })).toMatchObject({ ok: true })
  expect(await call({ maxBinaryBytes: 10 }, "getPetPhoto", { petId: 1 })).toMatchObject({
    ok: false,
    code: "tool_result_too_large",
    message: expect.stringMatching(/larger than 10 bytes/),
  })
})

it("refuses JSON with more keys and elements than maxToolResultNodes", async () => {
  expect(await call({ maxToolResultNodes: 10 }, "listPets", {})).toMatchObject({
    ok: false,
    code: "tool_result_too_large",
    message: expect.stringMatching(/^the answer's JSON is larger than 10 keys and elements \(it has \d+\)/),
  })
  expect(await call({ maxToolResultNodes: 1000 }, "listPets", {})).toMatchObject({ ok: true })
})
