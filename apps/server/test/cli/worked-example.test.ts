/**
 * The README's worked example, as written: examples/memory-and-files.config.json adds @modelcontextprotocol's
 * server-memory and server-filesystem at boot, examples/memory-and-files.ts uses both in one script, and an MCP
 * client (the SDK's, over stdio, as Claude Desktop connects) runs the same script through `switchboard mcp`.
 * One change to the file: its `npx -y <package>@<version>` commands run the same versions installed here
 * (devDependencies), so that the test neither downloads nor depends on the registry.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js"
import { afterAll, expect, it } from "vitest"
import { cliArgs } from "../support/built-cli.js"
import { tempDir } from "../support/helpers.js"
import { call, spawnServe } from "../support/process-harness.js"

const examples = fileURLToPath(new URL("../../examples/", import.meta.url))
const script = readFileSync(join(examples, "memory-and-files.ts"), "utf8")
const expected = "Ada Lovelace (person): wrote the first program\nGrace Hopper (person): built the first compiler"

/** `npx -y <name>@<version>` → `node <that package's bin>`, from this package's node_modules */
const require = createRequire(import.meta.url)
const installed = (args: string[]) => {
  const [, spec, ...rest] = args
  const name = /^(@[^/]+\/[^@]+)@/.exec(spec!)![1]!
  const manifest = require.resolve(`${name}/package.json`)
  const { bin } = JSON.parse(readFileSync(manifest, "utf8")) as { bin: Record<string, string> }
  return { command: process.execPath, args: [join(dirname(manifest), Object.values(bin)[0]!), ...rest] }
}

const folder = tempDir()
afterAll(() => folder.remove())

it("two npm MCP servers from config, one script using both, over HTTP and to an MCP client over stdio", async () => {
  const files = join(folder.dir, "files")
  mkdirSync(files)
  writeFileSync(join(files, "people.txt"), readFileSync(join(examples, "people.txt"), "utf8"))
  const config = JSON.parse(readFileSync(join(examples, "memory-and-files.config.json"), "utf8"))
  for (const source of config.sources) {
    expect(source.transport.command).toBe("npx")
    Object.assign(source.transport, installed(source.transport.args))
  }
  const configFile = join(folder.dir, "switchboard.config.json")
  writeFileSync(configFile, JSON.stringify(config))
  const db = join(folder.dir, "example.db")

  const server = await spawnServe(["--config", configFile, "--db", db], { env: { EXAMPLE_DIR: files } })
  try {
    expect(server.stderr()).toContain("added memory, files")
    const ran = await call(server.url, "POST", "/v1/execute", { code: script })
    expect(ran.body).toMatchObject({ ok: true, text: expected })
  } finally {
    await server.stop()
  }

  const client = new Client({ name: "an-mcp-client", version: "1.0.0" })
  await client.connect(
    new StdioClientTransport({ command: process.execPath, args: cliArgs(["mcp", "--db", db, "--allow-stdio"]) }),
  )
  try {
    const result = await client.callTool({ name: "execute", arguments: { code: script } })
    expect(result.isError ?? false).toBe(false)
    expect(result.content).toEqual([{ type: "text", text: expected }])
  } finally {
    await client.close()
  }
}, 120_000)
