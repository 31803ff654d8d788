/**
 * A load generator in a process of its own, as real clients are: `concurrent` keep-alive connections post
 * `{"code": …}` to /v1/execute until `total` executions are done, then it prints executions/s as JSON.
 * Run by run.ts (`spawnLoad`); by hand: `pnpm tsx bench/execute/load-client.ts <url> <concurrent> <total> [code]`.
 */
import { spawn } from "node:child_process"
import { fileURLToPath } from "node:url"
import { performance } from "node:perf_hooks"
import { createClient } from "./http-client.js"

const runLoad = async (url: string, concurrent: number, total: number, code: string, authorization?: string) => {
  const client = createClient(url, concurrent, authorization ? { authorization } : {})
  const body = JSON.stringify({ code })
  let next = 0
  let failed = 0
  const started = performance.now()
  await Promise.all(
    Array.from({ length: concurrent }, async () => {
      while (next++ < total) {
        const response = await client.post("/v1/execute", body)
        if (response.status !== 200) failed++
      }
    }),
  )
  const perSecond = total / ((performance.now() - started) / 1000)
  client.close()
  return { perSecond, failed }
}

/** Runs the load generator in a child process; resolves to its executions/s (rejects when any request failed). */
export const spawnLoad = (
  url: string,
  concurrent: number,
  total: number,
  code = "return 1+1",
  authorization?: string,
) =>
  new Promise<number>((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ["--import", "tsx", fileURLToPath(import.meta.url), url, String(concurrent), String(total), code],
      // the key travels in the environment, not on a command line others can read
      { stdio: ["ignore", "pipe", "inherit"], env: { ...process.env, BENCH_AUTHORIZATION: authorization ?? "" } },
    )
    let output = ""
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")))
    child.on("error", reject)
    child.on("exit", (status) => {
      try {
        const { perSecond, failed } = JSON.parse(output) as { perSecond: number; failed: number }
        if (status !== 0 || failed > 0) throw new Error(`${failed} requests failed (exit ${status})`)
        resolve(perSecond)
      } catch (cause) {
        reject(new Error(`the load client failed: ${String(cause)}; it printed ${output.slice(0, 200)}`))
      }
    })
  })

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [url, concurrent = "32", total = "4000", code = "return 1+1"] = process.argv.slice(2)
  if (!url) throw new Error("usage: load-client.ts <url> [concurrent] [total] [code]")
  process.stdout.write(
    JSON.stringify(
      await runLoad(url, Number(concurrent), Number(total), code, process.env.BENCH_AUTHORIZATION || undefined),
    ),
  )
}
