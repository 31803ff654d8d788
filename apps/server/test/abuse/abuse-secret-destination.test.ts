/**
 * Issue 30, finding 3: an admin never reads a source's secrets, so a PATCH must not be a way to send them
 * elsewhere. A PATCH that moves an http source to another origin drops its stored headers, and one that changes a
 * stdio source's arguments (what the command runs) drops its stored env, unless the same PATCH sends them again;
 * the answer's `dropped` names what went. A canary upstream at another origin sees no stored secret. Against a
 * `switchboard serve --allow-stdio` process.
 */
import { afterAll, beforeAll, expect, it } from "vitest"
import { echoEnvServerScript, startEchoHeadersServer } from "@switchboard/fixtures"
import type { EchoHeadersServer } from "@switchboard/fixtures"
import { tempDir } from "../support/helpers.js"
import { call, spawnServe } from "../support/process-harness.js"
import type { ServeProcess } from "../support/process-harness.js"

const HEADER_SECRET = "HDRSECRET_7f3a9c1e5b"
const ENV_SECRET = "ENVSECRET_2d8b4f6a0c"

const dir = tempDir()
let server: ServeProcess
let upstream: EchoHeadersServer
let canary: EchoHeadersServer
const httpSource = () => ({
  namespace: "hdrs",
  kind: "mcp",
  transport: { type: "http", url: upstream.url, headers: { authorization: `Bearer ${HEADER_SECRET}`, "x-team": "a" } },
})
const stdioSource = {
  namespace: "envs",
  kind: "mcp",
  transport: {
    type: "stdio",
    command: process.execPath,
    args: ["-e", echoEnvServerScript],
    env: { ECHO_TOKEN: ENV_SECRET },
  },
}
const sent = (server: EchoHeadersServer) => JSON.stringify(server.received)
const echoedEnvNames = async () =>
  (await call(server.url, "POST", "/v1/execute", { code: "return Object.keys((await tools.envs.echo({})).data.env)" }))
    .body.result

beforeAll(async () => {
  ;[upstream, canary] = await Promise.all([startEchoHeadersServer(), startEchoHeadersServer()])
  server = await spawnServe(["--db", `${dir.dir}/catalog.db`, "--allow-stdio"])
}, 60_000)
afterAll(async () => {
  await server?.stop()
  await Promise.all([upstream?.close(), canary?.close()])
  dir.remove()
})

it("a new URL at another origin drops the stored headers: the canary never sees them, and the answer says so", async () => {
  expect((await call(server.url, "POST", "/v1/sources", httpSource())).status).toBe(201)
  const patched = await call(server.url, "PATCH", "/v1/sources/hdrs", { transport: { url: canary.url } })
  expect(patched.status, JSON.stringify(patched.body)).toBe(200)
  // the PATCH listed the canary's tools with what it now holds
  expect(canary.received.length).toBeGreaterThan(0)
  expect(sent(canary)).not.toContain(HEADER_SECRET)
  expect(patched.body.dropped).toEqual(["transport.headers.authorization", "transport.headers.x-team"])
  expect(patched.body.source.config.transport.headers).toEqual({})
  expect(
    (await call(server.url, "POST", "/v1/execute", { code: "return (await tools.hdrs.echo({})).ok" })).body.result,
  ).toBe(true)
  expect(canary.received.length).toBeGreaterThan(0)
  expect(sent(canary)).not.toContain(HEADER_SECRET)
  expect(sent(canary)).not.toContain("x-team")
})

it("headers sent in the same PATCH go to the new origin; a new URL at the same origin keeps the stored ones", async () => {
  await call(server.url, "DELETE", "/v1/sources/hdrs")
  expect((await call(server.url, "POST", "/v1/sources", httpSource())).status).toBe(201)
  const moved = await call(server.url, "PATCH", "/v1/sources/hdrs", {
    transport: { url: canary.url, headers: { authorization: "Bearer for-the-canary-0001" } },
  })
  expect(moved.status, JSON.stringify(moved.body)).toBe(200)
  expect(moved.body.dropped).toEqual([])
  expect(canary.received.at(-1)?.authorization).toBe("Bearer for-the-canary-0001")

  const back = await call(server.url, "PATCH", "/v1/sources/hdrs", {
    transport: { url: upstream.url, headers: { authorization: `Bearer ${HEADER_SECRET}` } },
  })
  expect(back.body.dropped).toEqual([])
  const samePlace = await call(server.url, "PATCH", "/v1/sources/hdrs", { transport: { url: `${upstream.url}?v=2` } })
  expect(samePlace.status, JSON.stringify(samePlace.body)).toBe(200)
  expect(samePlace.body.dropped).toEqual([])
  expect(samePlace.body.source.config.transport.headers).toEqual({ authorization: "<redacted>" })
  expect(upstream.received.at(-1)?.authorization).toBe(`Bearer ${HEADER_SECRET}`)
  expect(sent(canary)).not.toContain(HEADER_SECRET)
})

it("new arguments for a stdio source drop its stored env unless the PATCH sends it; new env alone keeps the arguments", async () => {
  expect((await call(server.url, "POST", "/v1/sources", stdioSource)).status).toBe(201)
  expect(await echoedEnvNames()).toEqual(["ECHO_TOKEN"])
  const patched = await call(server.url, "PATCH", "/v1/sources/envs", {
    transport: { args: ["-e", echoEnvServerScript, "--", "another program"] },
  })
  expect(patched.status, JSON.stringify(patched.body)).toBe(200)
  expect(patched.body.dropped).toEqual(["transport.env.ECHO_TOKEN"])
  expect(patched.body.source.config.transport.env).toEqual({})
  expect(await echoedEnvNames()).toEqual([])

  const withEnv = await call(server.url, "PATCH", "/v1/sources/envs", {
    transport: { args: ["-e", echoEnvServerScript], env: { ECHO_TOKEN: ENV_SECRET } },
  })
  expect(withEnv.body.dropped).toEqual([])
  expect(await echoedEnvNames()).toEqual(["ECHO_TOKEN"])
  const envOnly = await call(server.url, "PATCH", "/v1/sources/envs", {
    transport: { env: { ECHO_TOKEN: "rotated-0002", ECHO_B: "b" } },
  })
  expect(envOnly.body.dropped).toEqual([])
  expect(envOnly.body.source.config.transport.args).toEqual(["-e", echoEnvServerScript])
  // the same arguments again are no change: the env stays
  const sameArgs = await call(server.url, "PATCH", "/v1/sources/envs", {
    transport: { args: ["-e", echoEnvServerScript] },
  })
  expect(sameArgs.body.dropped).toEqual([])
  expect(await echoedEnvNames()).toEqual(["ECHO_TOKEN", "ECHO_B"])
})
