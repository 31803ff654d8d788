/**
 * A stdio server's relative paths, made absolute when its source is added (src/node/stdio-paths.ts), against a real
 * folder: what is a path is told by its form and, where the form is not enough, by what exists.
 */
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { checkStdioPaths, resolveStdioPaths } from "../src/node/stdio-paths.js"

const base = mkdtempSync(join(tmpdir(), "stdio-paths-"))
mkdirSync(join(base, "srv"))
mkdirSync(join(base, "data"))
writeFileSync(join(base, "srv", "server.mjs"), "")
writeFileSync(join(base, "main.py"), "")
writeFileSync(join(base, "run.sh"), "#!/bin/sh\n")
chmodSync(join(base, "run.sh"), 0o755)
afterAll(() => rmSync(base, { recursive: true, force: true }))

const args = (...given: string[]) => resolveStdioPaths({ command: "node", args: given }, base).args

describe("resolveStdioPaths", () => {
  it("makes relative paths absolute against the folder given", () => {
    expect(args("srv/server.mjs", "./srv/server.mjs", "../x.py", ".", "main.py")).toEqual([
      join(base, "srv/server.mjs"),
      join(base, "srv/server.mjs"),
      join(base, "../x.py"),
      base,
      join(base, "main.py"),
    ])
  })

  it("takes a path with a separator for one when it or its folder exists: a file to be made is one too", () => {
    expect(args("data/out.log", "srv/new/deeper.txt")).toEqual([join(base, "data/out.log"), "srv/new/deeper.txt"])
  })

  it("leaves flags, package names, URLs, assignments and words alone", () => {
    const kept = [
      "-y",
      "--port",
      "8080",
      "--import",
      "tsx",
      "@modelcontextprotocol/server-everything",
      "mcp/fetch",
      "https://example.com/a/b.js",
      "jsr:@std/x",
      "NAME=value/x",
      "--root=./data",
      "serve",
      "/already/absolute.js",
    ]
    expect(args(...kept)).toEqual(kept)
  })

  it("leaves an argument that may be a credential alone, whatever it looks like", () => {
    expect(args("--api-key", "./srv/server.mjs")).toEqual(["--api-key", "./srv/server.mjs"])
  })

  it("makes a command with a separator absolute and leaves a bare name to PATH", () => {
    expect(resolveStdioPaths({ command: "./run.sh" }, base).command).toBe(join(base, "run.sh"))
    expect(resolveStdioPaths({ command: "srv/../run.sh" }, base).command).toBe(join(base, "run.sh"))
    expect(resolveStdioPaths({ command: "npx", args: ["-y", "x"] }, base)).toEqual({
      command: "npx",
      args: ["-y", "x"],
    })
  })

  it("takes relative paths from the server's cwd when it has one, itself taken from the folder", () => {
    expect(resolveStdioPaths({ command: "node", args: ["server.mjs"], cwd: "srv" }, base)).toEqual({
      command: "node",
      args: [join(base, "srv/server.mjs")],
      cwd: join(base, "srv"),
    })
  })
})

describe("checkStdioPaths", () => {
  const check = (server: { command: string; args?: string[]; cwd?: string; env?: Record<string, string> }) =>
    checkStdioPaths(resolveStdioPaths(server, base))

  it("passes what exists, and a bare command on PATH", () => {
    expect(check({ command: "./run.sh" })).toEqual([])
    expect(check({ command: "node", args: ["srv/server.mjs", "data/new.log"] })).toEqual([])
    expect(check({ command: "sh", args: ["-c", "exit 0"] })).toEqual([])
  })

  it("names a command that is not there, a folder, or a name not on PATH", () => {
    expect(check({ command: "./nothing/server" })).toEqual([
      `transport.command: ${join(base, "nothing/server")} does not exist`,
    ])
    expect(check({ command: "./srv" })).toEqual([`transport.command: ${join(base, "srv")} is a folder, not a program`])
    expect(check({ command: "no-such-program-here" })).toEqual([
      'transport.command: "no-such-program-here" is not a program on this host\'s PATH',
    ])
    // the source's own PATH is where its command is looked for
    expect(check({ command: "run.sh", env: { PATH: base } })).toEqual([])
  })

  it("names a script argument that does not exist", () => {
    expect(check({ command: "node", args: ["missing.js"] })).toEqual([
      `transport.args[0]: ${join(base, "missing.js")} does not exist`,
    ])
    expect(check({ command: "python3", args: ["-u", "./gone/main.py"] })).toEqual([
      `transport.args[1]: ${join(base, "gone/main.py")} does not exist`,
    ])
  })

  it("names a cwd that is not a folder", () => {
    expect(check({ command: "node", cwd: "nowhere" })).toEqual([
      `transport.cwd: ${join(base, "nowhere")} is not a folder`,
    ])
  })
})
