/**
 * A Node process of its own that prints "listening on <url>" once it serves (`switchboard serve`, a bare server):
 * resolves with its URL, its pid and a stop that waits for its exit. `stderr`: "inherit" shows its log, "ignore"
 * drains it (a server logging every request would otherwise fill the pipe).
 */
import { spawn } from "node:child_process"

export const startListening = (args: string[], stderr: "inherit" | "ignore" = "inherit") =>
  new Promise<{ url: string; pid: number; stop: () => Promise<void> }>((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", stderr] })
    let out = ""
    child.stdout.on("data", (chunk) => {
      out += chunk
      const url = /listening on (http:\/\/\S+)/.exec(out)?.[1]
      if (url)
        resolve({
          url,
          pid: child.pid!,
          stop: () =>
            new Promise<void>((done) => {
              child.once("exit", () => done())
              child.kill("SIGTERM")
            }),
        })
    })
    child.once("exit", (code) => reject(new Error(`${args.join(" ")} exited ${code}`)))
  })
