/**
 * The container's command, run without the container (no container runtime can pull or build an image on the
 * machines these tests run on: README.md, "In a container"). The Dockerfile's ENTRYPOINT and CMD as written, with
 * the image's `switchboard` replaced by the built CLI, its volume /data by a temp folder, its working directory
 * /etc/switchboard (where a config file is mounted) by another, and port 4747 by a free one; then its HEALTHCHECK
 * command, and the first key made as the Dockerfile's header says.
 */
import { spawn, spawnSync } from "node:child_process"
import { existsSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { expect, it } from "vitest"
import { freePort } from "@switchboard/fixtures"
import { cliArgs } from "../support/built-cli.js"
import { tempDir } from "../support/helpers.js"
import { runCli } from "../support/run-cli.js"

const dockerfile = readFileSync(fileURLToPath(new URL("../../../../Dockerfile", import.meta.url)), "utf8")
  // a line ending in a backslash goes on with the next
  .replace(/\\\n\s*/g, " ")

/** the JSON array of the last `<instruction> [...]` line of the final stage */
const exec = (instruction: "ENTRYPOINT" | "CMD" | "HEALTHCHECK"): string[] => {
  const lines = dockerfile.split("\n").filter((line) => line.startsWith(`${instruction} `))
  const json = /(\[.*\])\s*$/.exec(lines.at(-1) ?? "")?.[1]
  if (!json) throw new Error(`no ${instruction} [...] in the Dockerfile`)
  return JSON.parse(json) as string[]
}
const last = (instruction: string) =>
  dockerfile
    .split("\n")
    .filter((line) => line.startsWith(`${instruction} `))
    .at(-1)
    ?.slice(instruction.length + 1)
    .trim()

it("the image's command serves on every address with keys required, the catalog in its volume, the mounted config applied; its healthcheck passes", async () => {
  expect(exec("ENTRYPOINT")).toEqual(["switchboard"])
  expect(last("VOLUME")).toBe("/data")
  expect(last("WORKDIR")).toBe("/etc/switchboard")
  const volume = tempDir()
  const workdir = tempDir()
  const port = String(await freePort())
  const inContainer = (args: string[]) =>
    args.map((arg) => arg.replaceAll("/data/", `${volume.dir}/`).replaceAll("4747", port))
  writeFileSync(join(workdir.dir, "switchboard.config.json"), JSON.stringify({ limits: { timeoutMs: 300 } }))
  const [command, ...args] = inContainer([...exec("ENTRYPOINT"), ...exec("CMD")])
  expect(command).toBe("switchboard")
  const [node, ...healthcheck] = inContainer(exec("HEALTHCHECK"))
  expect(node).toBe("node")
  // nothing listens yet: unhealthy
  expect(spawnSync(process.execPath, healthcheck).status).toBe(1)
  const child = spawn(process.execPath, cliArgs(args), { cwd: workdir.dir, stdio: ["ignore", "pipe", "pipe"] })
  let stdout = ""
  let stderr = ""
  child.stdout.on("data", (d) => (stdout += d))
  child.stderr.on("data", (d) => (stderr += d))
  try {
    await new Promise<void>((resolve, reject) => {
      child.stdout.on("data", () => stdout.includes("listening on") && resolve())
      child.once("exit", (code) => reject(new Error(`serve exited ${code}: ${stderr}`)))
    })
    const db = join(volume.dir, "switchboard.db")
    expect(stdout).toContain(`created a new catalog database at ${db}`)
    expect(existsSync(join(volume.dir, "switchboard.key"))).toBe(true)
    expect(stdout).toContain(`listening on http://0.0.0.0:${port}`)
    expect(stderr).toContain("config ./switchboard.config.json: no sources")

    expect(spawnSync(process.execPath, healthcheck).status).toBe(0)

    const url = `http://127.0.0.1:${port}`
    expect((await fetch(`${url}/healthz`)).status).toBe(200)
    expect((await fetch(`${url}/v1/tools`)).status).toBe(401)
    const created = await runCli(["keys", "create", "ops", "--scope", "admin", "--db", db])
    expect(created.status, created.stderr).toBe(0)
    const authorization = `Bearer ${created.stdout.trim()}`
    const tools = await fetch(`${url}/v1/tools`, { headers: { authorization } })
    expect(tools.status).toBe(200)
    // the mounted file's limits hold: a loop ends at its 300 ms, not at the default 30 s
    const looped = await fetch(`${url}/v1/execute`, {
      method: "POST",
      headers: { authorization, "content-type": "application/json" },
      body: JSON.stringify({ code: "while (true) {}" }),
    })
    expect(await looped.json()).toMatchObject({
      ok: false,
      error: { code: "timeout", message: expect.stringContaining("time limit of 300 ms") },
    })
  } finally {
    child.kill("SIGTERM")
    await new Promise((resolve) => child.once("exit", resolve))
    volume.remove()
    workdir.remove()
  }
}, 60_000)
