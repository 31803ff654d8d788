/**
 * Calls go out through the host's egress guard (plugin-mcp's Node guard, as the Node host hands it): a name that
 * resolves to a private address is refused at the call, and so is a redirect to one. Nothing leaves loopback: the
 * guard's resolver is made to answer 127.0.0.1, and a refusal happens before any connection.
 */
import { PETS_SPEC_YAML, startPetsService } from "@switchboard/fixtures"
import type { PetsService } from "@switchboard/fixtures"
import { createGuardedFetch } from "@switchboard/plugin-mcp/node"
import { afterAll, beforeAll, expect, it } from "vitest"
import { compileSpec, createOpenApiPlugin, parseSpec } from "../src/index.js"
import type { OperationBinding } from "../src/index.js"

let pets: PetsService
beforeAll(async () => {
  pets = await startPetsService()
})
afterAll(() => pets.close())

const bindingOf = (name: string) =>
  compileSpec(parseSpec(PETS_SPEC_YAML, "spec.inline")).tools.find((t) => t.name === name)!.binding

it("refuses a call whose host resolves to a private address", async () => {
  const guard = createGuardedFetch({ resolve: async () => [{ address: "127.0.0.1", family: 4 }] })
  try {
    const plugin = createOpenApiPlugin({ fetch: guard })
    const handle = {
      id: "s",
      namespace: "pets",
      kind: "openapi",
      config: { baseUrl: "http://pets.example.test", auth: {}, headers: {} },
    }
    const hits = pets.hits
    expect(
      await plugin.invoke(
        handle,
        "getPet",
        { petId: 1 },
        { deadline: Date.now() + 5000, binding: bindingOf("getPet") },
      ),
    ).toEqual({
      ok: false,
      code: "private_address",
      message: expect.stringMatching(/^"pets\.example\.test" is a loopback address/),
    })
    expect(pets.hits).toBe(hits)
  } finally {
    await guard.close()
  }
})

it("re-checks a redirect: one to a private address is refused", async () => {
  // every address passes but names under localhost, so the first hop reaches the fixture and its redirect is judged
  const guard = createGuardedFetch({ classify: () => "public" })
  try {
    const plugin = createOpenApiPlugin({ fetch: guard })
    const handle = { id: "s", namespace: "pets", kind: "openapi", config: { auth: {}, headers: {} } }
    const redirect: OperationBinding = {
      method: "get",
      path: "/redirect",
      server: pets.url,
      params: [{ name: "to", in: "query", arg: "to", style: "form", explode: true }],
      security: [],
    }
    const call = (to: string) =>
      plugin.invoke(handle, "redirect", { to }, { deadline: Date.now() + 5000, binding: redirect })
    expect(await call("/pets")).toMatchObject({ ok: true, raw: [{ name: "Tom" }, { name: "Rex" }, { name: "Tweety" }] })
    const port = new URL(pets.url).port
    expect(await call(`http://localhost:${port}/pets`)).toMatchObject({
      ok: false,
      code: "private_address",
      message: expect.stringMatching(/^"localhost" is a loopback address/),
    })
  } finally {
    await guard.close()
  }
})
