/**
 * A real third-party MCP server over streamable HTTP that restarts: its sessions are gone, and it says so with
 * 400 "No valid session ID provided" (the spec's answer is 404). The source recovers by itself: the next call and
 * the next sync make a new session.
 */
import { spawn } from "node:child_process"
import type { ChildProcess } from "node:child_process"
import { createRequire } from "node:module"
import { afterAll, beforeAll, expect, it } from "vitest"
import { freePort } from "@switchboard/fixtures"
import { startTestServer } from "../support/helpers.js"
import type { TestServer } from "../support/helpers.js"

const everythingBin = createRequire(import.meta.url).resolve("@modelcontextprotocol/server-everything/dist/index.js")

/** server-everything in streamable HTTP mode on `port`, resolved once it listens. */
const startEverything = (port: number) =>
  new Promise<ChildProcess>((resolve, reject) => {
    const child = spawn(process.execPath, [everythingBin, "streamableHttp"], {
      env: { ...process.env, PORT: String(port) },
      stdio: ["ignore", "ignore", "pipe"],
    })
    let said = ""
    child.stderr!.on("data", (chunk: Buffer) => {
      said += chunk.toString()
      if (said.includes("listening on port")) resolve(child)
    })
    child.once("exit", (code) => reject(new Error(`server-everything exited (${code}): ${said}`)))
  })

const stopEverything = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve()
    child.once("exit", () => resolve())
    child.kill("SIGKILL")
  })

let server: TestServer
let upstream: ChildProcess
let port: number

beforeAll(async () => {
  port = await freePort()
  upstream = await startEverything(port)
  server = await startTestServer()
  const added = await server.request("POST", "/v1/sources", {
    namespace: "everything",
    kind: "mcp",
    transport: { type: "http", url: `http://127.0.0.1:${port}/mcp` },
  })
  expect(added.status).toBe(201)
}, 30_000)
afterAll(async () => {
  await server?.stop()
  if (upstream) await stopEverything(upstream)
})

const echo = (message: string) =>
  server.execute(`return await tools.everything.echo({ message: ${JSON.stringify(message)} })`)

it("after the upstream restarts, the next call and the next sync succeed on a new session", async () => {
  expect((await echo("before")).result).toEqual({ ok: true, data: "Echo: before" })
  await stopEverything(upstream)
  upstream = await startEverything(port)
  expect((await echo("after")).result).toEqual({ ok: true, data: "Echo: after" })

  await stopEverything(upstream)
  upstream = await startEverything(port)
  const synced = await server.request("POST", "/v1/sources/everything/sync")
  expect(synced.status).toBe(200)
  expect((await echo("again")).result).toEqual({ ok: true, data: "Echo: again" })
}, 60_000)

it("while the upstream is down, a call fails as upstream_unavailable, and it recovers once the upstream is back", async () => {
  await stopEverything(upstream)
  const down = (await echo("down")).result
  expect(down).toMatchObject({ ok: false, error: { code: "upstream_unavailable" } })
  upstream = await startEverything(port)
  expect((await echo("back")).result).toEqual({ ok: true, data: "Echo: back" })
}, 60_000)

it("a call cut by the upstream dying fails soon as upstream_unavailable, not at its timeout; the next one succeeds", async () => {
  const started = Date.now()
  const pending = server.execute(
    `return await tools.everything["trigger-long-running-operation"]({ duration: 20, steps: 20 })`,
  )
  await new Promise((resolve) => setTimeout(resolve, 1_500))
  await stopEverything(upstream)
  const cut = (await pending).result
  expect(cut).toMatchObject({ ok: false, error: { code: "upstream_unavailable" } })
  expect(Date.now() - started).toBeLessThan(15_000) // the SDK waits 1 s and 1.5 s to resume the stream, then gives up
  upstream = await startEverything(port)
  expect((await echo("next")).result).toEqual({ ok: true, data: "Echo: next" })
}, 60_000)
