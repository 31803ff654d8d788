/**
 * A Postgres cluster of the test's own, in a temp folder on a free port, so a test may stop and restart it
 * without touching the shared server other suites use. initdb refuses to run as root, so as root the cluster
 * belongs to the `postgres` user (run through runuser).
 */
import { execFileSync } from "node:child_process"
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { freePort } from "@switchboard/fixtures"

const binDir = () => {
  const root = "/usr/lib/postgresql"
  const version = existsSync(root) ? readdirSync(root).sort((a, b) => Number(b) - Number(a))[0] : undefined
  if (!version)
    throw new Error(
      `no PostgreSQL binaries under ${root}: this test starts a cluster of its own with initdb and pg_ctl`,
    )
  return join(root, version, "bin")
}

export interface ScratchPostgres {
  url: string
  port: number
  start(): void
  /** `fast`: clients are disconnected and the server shuts down cleanly */
  stop(): void
  restart(): void
  remove(): void
}

export const startScratchPostgres = async (): Promise<ScratchPostgres> => {
  const bin = binDir()
  const dir = mkdtempSync(join(tmpdir(), "switchboard-pg-"))
  const asRoot = process.getuid?.() === 0
  if (asRoot)
    chownSync(
      dir,
      Number(execFileSync("id", ["-u", "postgres"]).toString().trim()),
      Number(execFileSync("id", ["-g", "postgres"]).toString().trim()),
    )
  const run = (command: string, args: string[]) =>
    execFileSync(
      asRoot ? "runuser" : join(bin, command),
      asRoot ? ["-u", "postgres", "--", join(bin, command), ...args] : args,
      { stdio: "pipe" },
    )
  const data = join(dir, "data")
  run("initdb", ["-D", data, "-A", "trust", "-U", "postgres", "--no-sync"])
  const port = await freePort()
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`
  const pgCtl = (...args: string[]) => run("pg_ctl", ["-D", data, "-l", join(dir, "log"), "-w", ...args])
  const scratch: ScratchPostgres = {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    start: () => void pgCtl("-o", options, "start"),
    stop: () => void pgCtl("-m", "fast", "stop"),
    restart: () => void pgCtl("-m", "fast", "-o", options, "restart"),
    remove() {
      try {
        pgCtl("-m", "immediate", "stop")
      } catch {
        // already stopped
      }
      rmSync(dir, { recursive: true, force: true })
    },
  }
  scratch.start()
  return scratch
}
