/** Calls through the plugin to the fixture pets service on loopback, its spec fetched as written. */
import { PETS_CREDENTIALS, PETS_SPEC_YAML, startPetsService, tinyPngBase64 } from "@switchboard/fixtures"
import type { PetsService } from "@switchboard/fixtures"
import { decodeToolResult } from "@switchboard/core"
import type { DiscoveredTool, SourceHandle, SourcePlugin } from "@switchboard/core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createOpenApiPlugin } from "../src/index.js"

let service: PetsService
let plugin: SourcePlugin
const sources = new Map<string, { handle: SourceHandle; tools: DiscoveredTool[] }>()

const addSource = async (namespace: string, config: Record<string, unknown>) => {
  const checked = plugin.validateConfig({ spec: { url: `${service.url}/openapi.yaml` }, ...config })
  if (!checked.ok) throw new Error(checked.message)
  const handle: SourceHandle = { id: `id-${namespace}`, namespace, kind: "openapi", config: checked.config }
  const discovered = await plugin.discover(handle)
  if (!discovered.ok) throw new Error(discovered.message)
  sources.set(namespace, { handle, tools: discovered.discovery.tools })
}

const call = async (
  name: string,
  args: Record<string, unknown> = {},
  options: { source?: string; signal?: AbortSignal } = {},
) => {
  const { handle, tools } = sources.get(options.source ?? "pets")!
  const binding = tools.find((t) => t.name === name)?.binding
  const raw = await plugin.invoke(handle, name, args, {
    deadline: Date.now() + 10_000,
    binding,
    signal: options.signal,
  })
  // as core's tool invoker turns a raw result into the script's
  if (raw.ok) return decodeToolResult("direct", raw.raw, raw.meta)
  const { code, message, data } = raw
  return { ok: false as const, error: data === undefined ? { code, message } : { code, message, data } }
}

beforeAll(async () => {
  service = await startPetsService()
  plugin = createOpenApiPlugin()
  await addSource("pets", {})
  const { bearer, basic, apiKey, cookie } = PETS_CREDENTIALS
  await addSource("authed", {
    auth: {
      bearerAuth: bearer,
      basicAuth: { ...basic },
      apiKeyHeader: apiKey,
      apiKeyQuery: apiKey,
      apiKeyCookie: cookie,
      oauth: bearer,
    },
    headers: { "x-custom-secret": "custom-header-secret-value" },
  })
  await addSource("quick", { timeoutMs: 300 })
})
afterAll(() => service.close())

describe("requests built from the spec", () => {
  it("writes query arrays exploded and not, a deepObject, a referenced parameter and a header", async () => {
    const result = await call("listPets", {
      tags: ["indoor", "loud"],
      ids: [1, 2],
      filter: { kind: "dog", minAge: 2 },
      limit: 5,
      "X-Request-Id": "req-1",
    })
    expect(result.ok && result.data).toEqual([{ id: 2, name: "Rex", kind: "dog", tags: ["outdoor", "loud"], age: 5 }])
    const headers = (result.ok && (result.meta as { headers: Record<string, string> }).headers) || {}
    expect(JSON.parse(headers["x-query"]!)).toEqual({
      tags: ["indoor", "loud"],
      ids: ["1,2"],
      "filter[kind]": ["dog"],
      "filter[minAge]": ["2"],
      limit: ["5"],
    })
    expect(headers["x-request-id"]).toBe("req-1")
  })

  it("fills and encodes the path, and sends a JSON body from the spread arguments or from `body`", async () => {
    expect(await call("getPet", { petId: 1 })).toMatchObject({
      ok: true,
      data: { id: 1, name: "Tom" },
      meta: { status: 200 },
    })
    expect(await call("getLabels", { names: ["a", "b c/d"] })).toMatchObject({ ok: true, data: { raw: "a,b%20c%2Fd" } })
    expect(await call("createPet", { name: "Kit", kind: "cat" })).toMatchObject({
      ok: true,
      data: { id: 4, name: "Kit", kind: "cat" },
      meta: { status: 201 },
    })
    expect(await call("replacePet", { petId: 7, body: { petId: 7, name: "Max" } })).toMatchObject({
      ok: true,
      data: { id: 7, name: "Max", petId: 7 },
    })
  })

  it("sends a form and a multipart body with a file", async () => {
    expect(await call("recordVisit", { petId: 2, vet: "Dr. Who", reasons: ["shots", "check"] })).toMatchObject({
      ok: true,
      data: { petId: 2, contentType: "application/x-www-form-urlencoded", vet: "Dr. Who", reasons: ["shots", "check"] },
    })
    const file = { base64: btoa("hello file"), contentType: "text/plain", filename: "a.txt" }
    expect(await call("uploadFile", { title: "t", file })).toMatchObject({
      ok: true,
      data: {
        contentType: "multipart/form-data",
        title: "t",
        file: { type: "text/plain", size: 10, text: "hello file" },
      },
    })
  })
})

describe("answers", () => {
  it("gives a cyclic structure, text, bytes and an empty answer as data", async () => {
    expect(await call("getTree")).toMatchObject({
      ok: true,
      data: { name: "root", children: [{ name: "a" }, { name: "b" }] },
    })
    expect(await call("getPetNotes", { petId: 1 })).toMatchObject({ ok: true, data: "notes for pet 1\nlikes: naps" })
    const bytes = atob(tinyPngBase64).length
    expect(await call("getPetPhoto", { petId: 1 })).toMatchObject({
      ok: true,
      data: { contentType: "image/png", bytes, base64: tinyPngBase64 },
    })
    expect(await call("delete_pets_petId", { petId: 1 })).toMatchObject({ ok: true, data: null, meta: { status: 204 } })
  })

  it("keeps a number past 2^53 exact: the JSON stays text, as an MCP text block's would", async () => {
    expect(await call("getCounts")).toMatchObject({ ok: true, data: '{"small": 1, "big": 9007199254740993}' })
  })

  it("fails a non-2xx answer with http_<status>, an excerpt and the parsed error", async () => {
    expect(await call("getPet", { petId: 999 })).toEqual({
      ok: false,
      error: {
        code: "http_404",
        message: 'HTTP 404 Not Found: {"code":"not_found","message":"no pet 999"}',
        data: { code: "not_found", message: "no pet 999" },
      },
    })
  })

  it("shows response headers without cookies or credentials, and scrubs the source's secrets from answers", async () => {
    const result = await call("echoRequest", {}, { source: "authed" })
    if (!result.ok) throw new Error(JSON.stringify(result))
    const meta = result.meta as { status: number; headers: Record<string, string> }
    expect(meta.headers["x-trace"]).toBe("trace-1")
    expect(Object.keys(meta.headers)).not.toContain("set-cookie")
    expect(Object.keys(meta.headers)).not.toContain("x-upstream-token")
    const echoed = JSON.stringify(result.data)
    expect(echoed).toContain('"x-custom-secret":"<redacted>"')
    expect(echoed).not.toContain("custom-header-secret-value")
    expect(echoed).not.toContain(PETS_CREDENTIALS.bearer)
  })
})

describe("auth, as the spec's securitySchemes declare it", () => {
  it.each([
    ["whoamiBearer", "bearer"],
    ["whoamiBasic", "basic"],
    ["whoamiHeaderKey", "apiKeyHeader"],
    ["whoamiQueryKey", "apiKeyQuery"],
    ["whoamiCookieKey", "apiKeyCookie"],
    ["whoamiOauth", "oauth"],
  ])("%s sends its %s credential, and fails with http_401 without it", async (tool, scheme) => {
    expect(await call(tool, {}, { source: "authed" })).toMatchObject({ ok: true, data: { scheme } })
    expect(await call(tool)).toMatchObject({ ok: false, error: { code: "http_401" } })
  })

  it("refuses a credential for a scheme it cannot use, when the source is added, naming it", async () => {
    const oidc = PETS_SPEC_YAML.replace(
      "    oauth:\n      type: oauth2\n",
      "    oidc: { type: openIdConnect, openIdConnectUrl: https://id.example.com/.well-known/openid-configuration }\n" +
        "    oauth:\n      type: oauth2\n",
    )
    const checked = plugin.validateConfig({ spec: { inline: oidc }, baseUrl: service.url, auth: { oidc: "t" } })
    expect(checked).toMatchObject({ ok: false, reason: "invalid" })
    expect((checked as { message: string }).message).toMatch(
      /^auth\.oidc: security scheme "oidc" is openIdConnect: OpenID/,
    )
    // OAuth settings for a scheme that is no oauth2 one, and settings whose flow the spec does not declare
    const settings = plugin.validateConfig({
      spec: { inline: PETS_SPEC_YAML },
      baseUrl: service.url,
      auth: { bearerAuth: { clientId: "c" } },
    })
    expect((settings as { message: string }).message).toMatch(
      /^auth\.bearerAuth: OAuth settings are for an oauth2 scheme/,
    )
    const handle = {
      id: "x",
      namespace: "x",
      kind: "openapi",
      config: { spec: { url: `${service.url}/openapi.yaml` }, auth: { oauth: { clientId: "c" } } },
    }
    expect(await plugin.discover(handle)).toMatchObject({
      ok: false,
      message: expect.stringMatching(
        /^auth\.oauth: the spec's oauth2 scheme "oauth" declares no authorizationCode flow/,
      ),
    })
  })
})

describe("time", () => {
  it("ends a call at the source's timeout", async () => {
    expect(await call("slow", { ms: 2000 }, { source: "quick" })).toMatchObject({
      ok: false,
      error: { code: "tool_timeout" },
    })
  })

  it("cancels a call when its execution ends", async () => {
    const controller = new AbortController()
    setTimeout(() => controller.abort(), 100)
    expect(await call("slow", { ms: 5000 }, { signal: controller.signal })).toMatchObject({
      ok: false,
      error: { code: "aborted" },
    })
  })
})
