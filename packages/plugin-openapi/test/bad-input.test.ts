/**
 * Specs the plugin refuses, each with a message naming the place: too large (streamed from loopback, not read past
 * the bound), servers at a private address on a host that refuses them, a spec URL the egress guard refuses.
 * Nothing here sends traffic beyond loopback: a private server is refused before any request.
 */
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { PETS_SPEC_YAML } from "@switchboard/fixtures"
import { createGuardedFetch } from "@switchboard/plugin-mcp/node"
import { afterAll, beforeAll, expect, it } from "vitest"
import { createOpenApiPlugin } from "../src/index.js"

const CHUNK = Buffer.alloc(1024 * 1024, " ")
let sent = 0
const server = createServer((req, res) => {
  // a 50 MB "spec": a JSON object padded with spaces, written as long as the reader reads
  res.writeHead(200, { "content-type": "application/json" })
  res.write('{"openapi":"3.0.3","paths":{}')
  let left = 50
  const more = () => {
    while (left > 0) {
      left--
      sent += CHUNK.length
      if (!res.write(CHUNK)) return void res.once("drain", more)
    }
    res.end("}")
  }
  res.on("close", () => (left = 0))
  more()
})
let url: string

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

const handle = (config: unknown) => ({ id: "s", namespace: "s", kind: "openapi", config })

it("refuses a 50 MB spec past the bound, without reading it whole", async () => {
  const plugin = createOpenApiPlugin({ maxSpecBytes: 8 * 1024 * 1024 })
  expect(await plugin.discover(handle({ spec: { url: `${url}/big.json` } }))).toEqual({
    ok: false,
    message: "spec.url: the spec is larger than 8 MiB, the most this server reads",
    upstreamError: true,
  })
  expect(sent).toBeLessThan(50 * CHUNK.length)
  const inline = createOpenApiPlugin().validateConfig({ spec: { inline: " ".repeat(2 * 1024 * 1024) } })
  expect(inline).toMatchObject({
    ok: false,
    message: expect.stringMatching(/^spec\.inline is longer than 1048576 characters/),
  })
})

it("refuses servers at a private address where the host refuses them, naming the place", async () => {
  const spec = PETS_SPEC_YAML.replace("  - url: /", "  - url: http://10.1.2.3:8080/api")
  const refusing = createOpenApiPlugin({ refusePrivateAddresses: true })
  const checked = refusing.validateConfig({ spec: { inline: spec } })
  if (!checked.ok) throw new Error(checked.message)
  expect(await refusing.discover(handle(checked.config))).toEqual({
    ok: false,
    refused: "private_address",
    message:
      'servers[0].url of listPets points at "10.1.2.3", a private address: this server refuses loopback, private, link-local and ' +
      "metadata addresses for sources; start it with --allow-private-sources to allow them",
  })
  expect(
    await refusing.discover(handle({ ...(checked.config as object), baseUrl: "http://localhost:1/" })),
  ).toMatchObject({
    ok: false,
    refused: "private_address",
    message: expect.stringMatching(/^baseUrl points at "localhost", a loopback address/),
  })
  expect(await createOpenApiPlugin().discover(handle(checked.config))).toMatchObject({ ok: true })
})

it("fetches the spec through the host's egress guard", async () => {
  const guard = createGuardedFetch()
  try {
    const plugin = createOpenApiPlugin({ fetch: guard, refusePrivateAddresses: true })
    expect(await plugin.discover(handle({ spec: { url: `${url}/spec.json` } }))).toMatchObject({
      ok: false,
      refused: "private_address",
      message: expect.stringMatching(/^"127\.0\.0\.1" is a loopback address/),
    })
  } finally {
    await guard.close()
  }
})

it("names a spec with no usable server, and one that is not there", async () => {
  const plugin = createOpenApiPlugin()
  expect(plugin.validateConfig({ spec: { inline: PETS_SPEC_YAML } })).toMatchObject({
    ok: false,
    reason: "invalid",
    message: 'servers[0].url of listPets: "/" is not an absolute URL: give the source a baseUrl',
  })
  const gone = await plugin.discover(handle({ spec: { url: "http://127.0.0.1:9/openapi.json" } }))
  expect(gone).toMatchObject({
    ok: false,
    message: expect.stringMatching(/^spec\.url: the spec could not be fetched: /),
  })
})
