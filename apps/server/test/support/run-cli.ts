/**
 * `switchboard <args>`, the built CLI (./built-cli.ts), run to its end in a child process: what every test that runs
 * a command to its end uses. Asynchronous, so a test may run an HTTP upstream or a server in its own process while
 * the command talks to it. `env` is laid over the test's environment; a variable given as undefined is unset.
 */
import { spawn } from "node:child_process"
import { cliArgs } from "./built-cli.js"

export interface RunCliOptions {
  env?: Record<string, string | undefined>
  /** written to the command's stdin, which is then closed (without it, stdin is closed at once) */
  input?: string
  cwd?: string
  /** the command is killed past this (default 60 s) */
  timeoutMs?: number
}

export interface CliResult {
  /** the exit code; null when the command was killed */
  status: number | null
  stdout: string
  stderr: string
}

export const runCli = (args: string[], { env, input, cwd, timeoutMs = 60_000 }: RunCliOptions = {}) =>
  new Promise<CliResult>((resolve, reject) => {
    const child = spawn(process.execPath, cliArgs(args), {
      cwd,
      env: env ? { ...process.env, ...env } : process.env,
      stdio: ["pipe", "pipe", "pipe"],
    })
    let stdout = ""
    let stderr = ""
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk))
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk))
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs)
    child.once("error", (error) => (clearTimeout(timer), reject(error)))
    child.once("close", (status) => (clearTimeout(timer), resolve({ status, stdout, stderr })))
    // a command that exits before reading its input closes the pipe under the write: not the test's failure
    child.stdin.once("error", () => {})
    child.stdin.end(input)
  })
