/**
 * Issue 30, finding 1: a stdio source's env must not make the command load code of the sender's choosing. The
 * demo's allowance covers its own transport exactly as the demo made it, so a PATCH of its env (NODE_OPTIONS
 * with an `--import` that writes a file) is refused like any other stdio source on a server without
 * --allow-stdio; and with --allow-stdio, env that makes a runtime load code (NODE_OPTIONS, LD_PRELOAD,
 * PYTHONPATH, …) is refused unless the server also has --allow-stdio-code-env. Each refusal is a 403 naming the
 * cause, the marker file the code would write stays absent, and nothing is stored. Real `switchboard` processes.
 */
import { existsSync } from "node:fs"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { echoEnvServerScript } from "@switchboard/fixtures"
import { tempDir } from "../support/helpers.js"
import { call, spawnServe } from "../support/process-harness.js"
import type { ServeProcess } from "../support/process-harness.js"

/** NODE_OPTIONS that makes any node it reaches write `marker` before its own code runs */
const importWriting = (marker: string) =>
  `--import=data:text/javascript,import('node:fs').then(m=>m.writeFileSync('${marker}','pwned'))`

/** the echo-env MCP server, which writes $MARKER_FILE as it starts */
const markedServer = (marker: string, env: Record<string, string> = {}) => ({
  type: "stdio",
  command: process.execPath,
  args: ["-e", `require("node:fs").writeFileSync(process.env.MARKER_FILE, "started");${echoEnvServerScript}`],
  env: { MARKER_FILE: marker, ...env },
})

describe("switchboard demo on loopback, without --allow-stdio or a key", () => {
  const dir = tempDir()
  const marker = join(dir.dir, "pwned")
  let demo: ServeProcess
  beforeAll(async () => {
    demo = await spawnServe(["--db", join(dir.dir, "demo.db")], { command: "demo" })
  }, 60_000)
  afterAll(async () => {
    await demo?.stop()
    dir.remove()
  })
  const demoTransport = async () =>
    (await call(demo.url, "GET", "/v1/sources")).body.sources.find((s: { namespace: string }) => s.namespace === "demo")
      .config.transport

  it("a PATCH of the demo source's env with NODE_OPTIONS is refused: the code never runs and nothing is stored", async () => {
    const before = await demoTransport()
    const patched = await call(demo.url, "PATCH", "/v1/sources/demo", {
      transport: { env: { NODE_OPTIONS: importWriting(marker) } },
    })
    expect(patched.status, JSON.stringify(patched.body)).toBe(403)
    expect(patched.body.error.code).toBe("source_disabled")
    expect(existsSync(marker)).toBe(false)
    expect(await demoTransport()).toEqual(before)
    expect(before.env).toEqual({})
    // the demo's own source still runs, with what the demo made
    const run = await call(demo.url, "POST", "/v1/execute", {
      code: "return (await tools.demo.add({ a: 2, b: 3 })).data",
    })
    expect(run.body.result).toEqual({ sum: 5 })
    expect(existsSync(marker)).toBe(false)
  })

  it("any other change to the demo's transport (a harmless env, other arguments) makes it a stdio source like any other", async () => {
    for (const transport of [
      { env: { HARMLESS: "1" } },
      { args: ["-e", "require('node:fs').writeFileSync(process.argv[1], 'x')", marker] },
    ]) {
      const patched = await call(demo.url, "PATCH", "/v1/sources/demo", { transport })
      expect(patched.status, JSON.stringify(patched.body)).toBe(403)
      expect(patched.body.error.code).toBe("source_disabled")
    }
    expect(existsSync(marker)).toBe(false)
    expect((await demoTransport()).env).toEqual({})
  })
})

describe("serve --allow-stdio: env that makes a runtime load code", () => {
  const dir = tempDir()
  const marker = join(dir.dir, "started")
  let server: ServeProcess
  beforeAll(async () => {
    server = await spawnServe(["--db", join(dir.dir, "catalog.db"), "--allow-stdio"])
  }, 60_000)
  afterAll(async () => {
    await server?.stop()
    dir.remove()
  })

  it.each([
    ["NODE_OPTIONS", importWriting(join(dir.dir, "pwned"))],
    ["LD_PRELOAD", "/tmp/evil.so"],
    ["LD_AUDIT", "/tmp/evil.so"],
    ["DYLD_INSERT_LIBRARIES", "/tmp/evil.dylib"],
    ["PYTHONPATH", "/tmp/evil"],
    ["PERL5OPT", "-Mevil"],
    ["BASH_ENV", "/tmp/evil.sh"],
    ["JAVA_TOOL_OPTIONS", "-javaagent:/tmp/evil.jar"],
    ["npm_config_registry", "https://registry.evil.example"],
  ])(
    "adding a source with %s is refused with 403 naming it and the flag; nothing starts or is stored",
    async (name, value) => {
      const added = await call(server.url, "POST", "/v1/sources", {
        namespace: "loader",
        kind: "mcp",
        transport: markedServer(marker, { [name]: value }),
      })
      expect(added.status, JSON.stringify(added.body)).toBe(403)
      expect(added.body.error.code).toBe("code_loading_env")
      expect(added.body.error.message).toContain(`transport.env.${name}`)
      expect(added.body.error.message).toContain("--allow-stdio-code-env")
      expect(added.body.error.message).not.toContain(value)
      expect(existsSync(marker)).toBe(false)
      expect(existsSync(join(dir.dir, "pwned"))).toBe(false)
      expect((await call(server.url, "GET", "/v1/sources")).body.sources).toEqual([])
    },
  )

  it("a PATCH that adds such a variable is refused and the stored env stays", async () => {
    const added = await call(server.url, "POST", "/v1/sources", {
      namespace: "plain",
      kind: "mcp",
      transport: markedServer(marker, { ECHO_A: "a-value" }),
    })
    expect(added.status, JSON.stringify(added.body)).toBe(201)
    const patched = await call(server.url, "PATCH", "/v1/sources/plain", {
      transport: { env: { MARKER_FILE: marker, ECHO_A: "a-value", LD_PRELOAD: "/tmp/evil.so" } },
    })
    expect(patched.status, JSON.stringify(patched.body)).toBe(403)
    expect(patched.body.error.code).toBe("code_loading_env")
    expect(patched.body.error.message).toContain("transport.env.LD_PRELOAD")
    const [source] = (await call(server.url, "GET", "/v1/sources")).body.sources
    expect(Object.keys(source.config.transport.env).sort()).toEqual(["ECHO_A", "MARKER_FILE"])
    // the server echoes its ECHO_ variables (their values scrubbed, as secrets)
    const run = await call(server.url, "POST", "/v1/execute", {
      code: "return Object.keys((await tools.plain.echo({})).data.env)",
    })
    expect(run.body.result).toEqual(["ECHO_A"])
  })
})

it("serve --allow-stdio --allow-stdio-code-env starts a source whose env loads code: the operator allowed it", async () => {
  const dir = tempDir()
  const pwned = join(dir.dir, "pwned")
  const server = await spawnServe(["--db", join(dir.dir, "catalog.db"), "--allow-stdio", "--allow-stdio-code-env"])
  try {
    const added = await call(server.url, "POST", "/v1/sources", {
      namespace: "loader",
      kind: "mcp",
      transport: markedServer(join(dir.dir, "started"), { NODE_OPTIONS: importWriting(pwned) }),
    })
    expect(added.status, JSON.stringify(added.body)).toBe(201)
    expect(existsSync(pwned)).toBe(true)
  } finally {
    await server.stop()
    dir.remove()
  }
}, 60_000)
