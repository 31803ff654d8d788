/** The CLI prints a result through the same renderer as every other surface: a string as its own text. */
import { spawnSync } from "node:child_process"
import { createRequire } from "node:module"
import { join } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import { expect, it } from "vitest"
import { tempDir } from "./helpers.js"

const cli = fileURLToPath(new URL("../src/cli.ts", import.meta.url))
const tsxLoader = pathToFileURL(createRequire(import.meta.url).resolve("tsx/esm")).href
const run = (args: string[], input?: string) =>
  spawnSync(process.execPath, ["--import", tsxLoader, cli, ...args], { input, encoding: "utf8", timeout: 60_000 })

it("switchboard run prints a string result as its own text and an object as JSON; a failure exits 1 with the code", () => {
  const dir = tempDir()
  try {
    const db = join(dir.dir, "cli.db")
    const text = run(["run", "-", "--db", db], 'return "a \\"quoted\\"\\tline\\nand a lone \\uD800"')
    expect(text.status).toBe(0)
    expect(text.stdout).toBe('a "quoted"\tline\nand a lone \uFFFD\n')
    const object = run(["run", "-", "--db", db], "return { n: 1, s: 'x' }")
    expect(object.stdout).toBe('{"n":1,"s":"x"}\n')
    const failed = run(["run", "-", "--db", db], "throw new Error('nope')")
    expect(failed.status).toBe(1)
    expect(failed.stderr).toMatch(/error \(runtime_error\).*nope/)
    const usage = run(["frobnicate"])
    expect(usage.status).toBe(2)
    expect(usage.stdout).toContain("commands:")
  } finally {
    dir.remove()
  }
}, 60_000)

it("switchboard keys create sets scopes (--scope repeated or comma-separated); an unknown or missing scope is a clear error; keys list shows them", () => {
  const dir = tempDir()
  try {
    const db = join(dir.dir, "keys.db")
    const created = run(["keys", "create", "agent", "--scope", "execute", "--db", db])
    expect(created.status, created.stderr).toBe(0)
    expect(created.stdout).toMatch(/^sb_[A-Za-z0-9_-]{43}\n$/)
    expect(created.stderr).toContain("scopes execute")
    expect(run(["keys", "create", "both", "--scope", "read,execute", "--scope", "admin", "--db", db]).status).toBe(0)
    const unknown = run(["keys", "create", "bad", "--scope", "execute,root", "--db", db])
    expect(unknown.status).toBe(2)
    expect(unknown.stderr).toContain('unknown scope "root"; the scopes are read, execute, admin')
    const missing = run(["keys", "create", "none", "--db", db])
    expect(missing.status).toBe(2)
    expect(missing.stderr).toContain("keys create needs --scope (read, execute, admin)")
    const listed = run(["keys", "list", "--db", db])
    expect(
      listed.stdout
        .trim()
        .split("\n")
        .map((line) => line.split("\t").slice(1, 4)),
    ).toEqual([
      ["agent", "execute", "live"],
      ["both", "read,execute,admin", "live"],
    ])
  } finally {
    dir.remove()
  }
}, 60_000)
