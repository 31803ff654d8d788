/**
 * The README's command lines for the CLI, run as written (issue 25): each ```sh block after the line
 * `<!-- apps/server/test/cli/readme-cli.test.ts runs this block -->`, through bash with pipefail, in a scratch
 * directory (not the repository root), with the built package's two commands on PATH as `npm install -g` links
 * them (`switchboard`, `switchboard-demo-server`). As the README says, `switchboard demo` runs in that directory
 * meanwhile; two things are filled in: `<id>` is the newest execution's id when the line runs, and
 * `127.0.0.1:4747` the address that demo listens on (a free port here). Every line must exit 0.
 */
import { spawn } from "node:child_process"
import type { ChildProcess } from "node:child_process"
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { afterAll, beforeAll, expect, it } from "vitest"
import { builtCli, builtDir } from "../support/built-cli.js"
import { tempDir } from "../support/helpers.js"

const MARKER = "<!-- apps/server/test/cli/readme-cli.test.ts runs this block -->"
const readme = readFileSync(new URL("../../../../README.md", import.meta.url), "utf8")

/** the marked blocks, each as its command lines (a line ending in \ joined with the next) */
const blocks = readme
  .split(MARKER)
  .slice(1)
  .map((after) => {
    const block = /^\s*```sh\n([\s\S]*?)\n```/.exec(after)
    if (!block) throw new Error(`no \`\`\`sh block right after the marker: ${after.slice(0, 80)}`)
    return block[1]!
      .replace(/\\\n\s*/g, "")
      .split("\n")
      .filter((line) => line.trim() !== "")
  })

const dir = tempDir()
const bin = join(dir.dir, "bin")
const work = join(dir.dir, "work")
let demo: ChildProcess | undefined
let address = ""

/** a command on PATH, as npm links a package's bin */
const command = (name: string, file: string) => {
  writeFileSync(join(bin, name), `#!/bin/sh\nexec "${process.execPath}" "${file}" "$@"\n`)
  chmodSync(join(bin, name), 0o755)
}

const env = () => ({ ...process.env, PATH: `${bin}:${process.env.PATH}`, SWITCHBOARD_DB: "", DATABASE_URL: "" })

beforeAll(async () => {
  mkdirSync(bin)
  mkdirSync(work)
  command("switchboard", builtCli)
  command("switchboard-demo-server", join(builtDir, "demo-server.mjs"))
  // "with `switchboard demo` running in another terminal, started in the same directory"
  demo = spawn("switchboard", ["demo", "--port", "0"], { cwd: work, env: env(), stdio: ["ignore", "pipe", "pipe"] })
  let out = ""
  let err = ""
  demo.stderr!.on("data", (d) => (err += d))
  address = await new Promise<string>((resolve, reject) => {
    demo!.stdout!.on("data", (d) => {
      out += d
      const match = /listening on http:\/\/(\S+)/.exec(out)
      if (match) resolve(match[1]!)
    })
    demo!.once("exit", (code) => reject(new Error(`demo exited ${code}: ${err}`)))
  })
}, 60_000)

afterAll(async () => {
  if (demo && demo.exitCode === null) {
    const exited = new Promise((resolve) => demo!.once("exit", resolve))
    demo.kill("SIGTERM")
    await exited
  }
  dir.remove()
})

/** a word bash reads back as it is */
const quoted = (text: string) => `'${text.replaceAll("'", "'\\''")}'`

/** one bash for the block, so that an `export` holds for the lines after it; each line's failure is named */
const script = (lines: string[]) =>
  [
    "set -o pipefail",
    ...lines.flatMap((line) => {
      const written = line.replaceAll("127.0.0.1:4747", address)
      const id = line.includes("<id>")
        ? [
            `ID=$(switchboard executions list --json --limit 1 | "${process.execPath}" -pe 'JSON.parse(require("fs").readFileSync(0, "utf8")).executions[0].id')`,
          ]
        : []
      const run = written.replaceAll("<id>", '"$ID"')
      return [...id, `echo ${quoted(`$ ${line}`)}`, `{ ${run}\n} || { echo ${quoted(`FAILED: ${line}`)} >&2; exit 1; }`]
    }),
  ].join("\n")

it("the README marks the CLI's blocks this test runs", () => {
  expect(blocks.length).toBeGreaterThanOrEqual(3)
  for (const lines of blocks) for (const line of lines) expect(line).toMatch(/^(switchboard |echo |export )/)
})

it.each(blocks.map((lines, i) => [i + 1, lines] as const))(
  "README block %i runs as written, every line exit 0",
  async (_, lines) => {
    const result = await new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn("bash", ["-c", script(lines)], { cwd: work, env: env(), stdio: ["ignore", "pipe", "pipe"] })
      let stdout = ""
      let stderr = ""
      child.stdout.on("data", (d) => (stdout += d))
      child.stderr.on("data", (d) => (stderr += d))
      child.once("close", (status) => resolve({ status, stdout, stderr }))
    })
    expect(result.status, `${result.stdout}\n${result.stderr}`).toBe(0)
    expect(result.stderr).not.toMatch(/^FAILED/m)
  },
  180_000,
)
