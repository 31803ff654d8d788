/** `switchboard config check` and `switchboard serve --config`, through the real command line. */
import { spawn } from "node:child_process"
import { existsSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { startContractHttpServer } from "@switchboard/fixtures"
import { expect, it } from "vitest"
import { cliArgs } from "../support/built-cli.js"
import { tempDir } from "../support/helpers.js"
import { runCli } from "../support/run-cli.js"

const example = fileURLToPath(new URL("../../examples/switchboard.config.json", import.meta.url))
// the built CLI, as an operator runs it
const node = (args: string[]) => [process.execPath, cliArgs(args)] as const

it("config check: exit 0 for a good file, 1 for a bad one or a missing variable, naming field and line", async () => {
  const good = await runCli(["config", "check", example], {
    env: { CONTRACT_PORT: "8931", CONTRACT_TOKEN: "s3cret-token-value" },
  })
  expect(good.status, good.stderr).toBe(0)
  expect(good.stdout).toBe(`${example}: ok (2 sources: demo, contract; 2 policy rules)\n`)

  const unset = await runCli(["config", "check", example], {
    env: { CONTRACT_PORT: "8931", CONTRACT_TOKEN: undefined },
  })
  expect(unset.status).toBe(1)
  expect(unset.stderr).toBe(
    `${example}:17:22: sources[1].transport.headers.authorization: environment variable CONTRACT_TOKEN is not set\n`,
  )

  const dir = tempDir()
  try {
    const bad = join(dir.dir, "bad.json")
    writeFileSync(bad, '{\n  "limits": { "timeoutMs": -1 }\n}\n')
    const refused = await runCli(["config", "check", bad])
    expect(refused.status).toBe(1)
    expect(refused.stderr).toContain(`${bad}:2:15: limits.timeoutMs: `)
    const missing = await runCli(["config", "check", join(dir.dir, "nope.json")])
    expect(missing.status).toBe(1)
    expect(missing.stderr).toContain("no such file")
  } finally {
    dir.remove()
  }
}, 120_000)

it("serve with a bad config file does not start: it names the field and line, and opens no database", async () => {
  const dir = tempDir()
  try {
    const file = join(dir.dir, "switchboard.config.json")
    const db = join(dir.dir, "never.db")
    writeFileSync(file, `{\n  "server": { "db": ${JSON.stringify(db)}, "port": 0 },\n  "sourcs": []\n}\n`)
    const served = await runCli(["serve", "--config", file])
    expect(served.status).toBe(1)
    expect(served.stderr).toContain(`${file}:3:3: sourcs: unknown field "sourcs"`)
    expect(served.stderr).toContain("nothing was started")
    expect(served.stdout).not.toContain("listening")
    expect(existsSync(db)).toBe(false)
  } finally {
    dir.remove()
  }
}, 60_000)

it("serve --config applies the file's sources before it listens; a flag wins over the file's setting", async () => {
  const upstream = await startContractHttpServer()
  const dir = tempDir()
  const fileDb = join(dir.dir, "from-file.db")
  const flagDb = join(dir.dir, "from-flag.db")
  const file = join(dir.dir, "switchboard.config.json")
  writeFileSync(
    file,
    JSON.stringify({
      server: { db: fileDb, port: 0 },
      sources: [
        {
          namespace: "contract",
          kind: "mcp",
          transport: { type: "http", url: upstream.url, headers: { authorization: "Bearer ${SB_CLI_TOKEN}" } },
        },
      ],
    }),
  )
  const child = spawn(...node(["serve", "--config", file, "--db", flagDb]), {
    env: { ...process.env, SB_CLI_TOKEN: "cli-token-1234567890" },
  })
  let stdout = ""
  let stderr = ""
  child.stderr.on("data", (chunk) => (stderr += chunk))
  try {
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on("data", (chunk) => {
        stdout += chunk
        const match = /listening on (http:\/\/\S+)/.exec(stdout)
        if (match) resolve(match[1]!)
      })
      child.once("exit", (code) => reject(new Error(`serve exited ${code}: ${stderr}`)))
    })
    const sources = (await (await fetch(`${url}/v1/sources`)).json()) as { sources: any[] }
    expect(sources.sources.map((s) => [s.namespace, s.status])).toEqual([["contract", "ready"]])
    expect(stderr).toContain(`config ${file}: added contract`)
    expect(stderr).not.toContain("cli-token-1234567890")
    expect(existsSync(flagDb)).toBe(true)
    expect(existsSync(fileDb)).toBe(false)
  } finally {
    child.kill("SIGTERM")
    await new Promise((resolve) => child.once("exit", resolve))
    await upstream.close()
    dir.remove()
  }
}, 60_000)
