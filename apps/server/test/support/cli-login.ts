/**
 * `switchboard sources login …` as a person runs it: the built CLI in a child process; once it prints the
 * authorization URL, `browse` plays the browser's part (a fetch that follows the redirect, or Chromium) and gives
 * back the page it ended on. The command must then end by itself: still running 20 s after the browser is done, it
 * is killed, and its status is null.
 */
import { spawn } from "node:child_process"
import { cliArgs } from "./built-cli.js"

export interface CliLogin {
  /** the exit code; null when the command had to be killed */
  status: number | null
  stdout: string
  stderr: string
  /** the page the browser ended on, or why it failed */
  page: string
}

export const loginFromCli = (args: string[], browse: (url: string) => Promise<string>) =>
  new Promise<CliLogin>((resolve, reject) => {
    const child = spawn(process.execPath, cliArgs(args), { stdio: ["ignore", "pipe", "pipe"] })
    let stdout = ""
    let stderr = ""
    let browser: Promise<string> | undefined
    let timer = setTimeout(() => child.kill("SIGKILL"), 90_000)
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk))
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk
      const url = stdout.split("\n").find((line) => line.startsWith("http"))
      if (url && !browser)
        browser = browse(url).then(
          (page) => {
            clearTimeout(timer)
            timer = setTimeout(() => child.kill("SIGKILL"), 20_000)
            return page
          },
          (error: Error) => `the browser failed: ${error.message}`,
        )
    })
    child.once("error", reject)
    child.once("close", async (status) => {
      clearTimeout(timer)
      resolve({ status, stdout, stderr, page: (await browser) ?? "" })
    })
  })
