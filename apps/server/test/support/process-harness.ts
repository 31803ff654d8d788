/**
 * A `switchboard serve` child process and what the process abuse suite measures of it from outside: /healthz
 * latency every 25 ms (a new connection each time), the child's RSS (VmRSS from /proc), and whether the execution
 * ids its answers name exist. Shared by test/abuse/abuse-process.test.ts and bench/abuse-healthz.ts.
 */
import { spawn } from "node:child_process"
import type { ChildProcess } from "node:child_process"
import { readFileSync } from "node:fs"
import { get } from "node:http"
import { cliArgs } from "./built-cli.js"

export interface ServeProcess {
  url: string
  child: ChildProcess
  /** everything the child wrote to stdout so far */
  stdout(): string
  /** everything the child wrote to stderr so far */
  stderr(): string
  stop(): Promise<void>
}

/**
 * `switchboard serve --port 0 …` (or `demo`), the built CLI, in its own process (a SQLite catalog makes its own key file); its URL
 * is read from the line it prints when listening.
 */
export const spawnServe = (
  args: string[],
  { command = "serve", env }: { command?: "serve" | "demo"; env?: Record<string, string> } = {},
): Promise<ServeProcess> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, cliArgs([command, "--port", "0", ...args]), {
      stdio: ["ignore", "pipe", "pipe"],
      ...(env ? { env: { ...process.env, ...env } } : {}),
    })
    let out = ""
    let err = ""
    child.stderr!.on("data", (d) => (err += d))
    child.stdout!.on("data", (d) => {
      out += d
      const match = /listening on (http:\/\/\S+)/.exec(out)
      if (match)
        resolve({
          url: match[1]!,
          child,
          stdout: () => out,
          stderr: () => err,
          stop: () =>
            new Promise<void>((done) => {
              if (child.exitCode !== null || child.signalCode !== null) return done()
              const kill = setTimeout(() => child.kill("SIGKILL"), 5_000)
              child.once("exit", () => (clearTimeout(kill), done()))
              child.kill("SIGTERM")
            }),
        })
    })
    child.once("exit", (code) => reject(new Error(`server exited with ${code}: ${err}`)))
  })

/** The child's resident set in bytes (VmRSS), read from /proc. */
export const rssOf = (pid: number): number => {
  const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"))
  if (!match) throw new Error(`no VmRSS for ${pid}`)
  return Number(match[1]) * 1024
}

/**
 * Poll the RSS until it is within `slack` bytes of `idle`, for at most `withinMs`; the last reading. The wait is
 * long because a loaded machine (a test run on 2 cores) delays the collections and thread exits that give memory
 * back; the bound itself is unchanged, and a server that keeps the memory still fails.
 */
export const settledRss = async (pid: number, idle: number, slack: number, withinMs = 15_000): Promise<number> => {
  const until = performance.now() + withinMs
  let rss = rssOf(pid)
  while (rss - idle > slack && performance.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 100))
    rss = rssOf(pid)
  }
  return rss
}

/** One GET on a connection of its own, as an orchestrator's probe makes it (kubelet, a container's HEALTHCHECK). */
const probeOnce = (url: string): Promise<number> =>
  new Promise((resolve, reject) => {
    const request = get(url, { agent: false, timeout: 5_000 }, (response) => {
      response.resume()
      response.once("end", () => resolve(response.statusCode ?? 0))
      response.once("error", reject)
    })
    request.once("timeout", () => request.destroy(new Error("no answer within 5 s")))
    request.once("error", reject)
  })

/**
 * GET /healthz every 25 ms (after each answer), each on a new connection, until `stop`; every latency, and every
 * answer that was not 200 or did not come at all (a probe is abandoned after 5 s, so a stalled server ends the case,
 * not the suite).
 */
export const probeHealth = (url: string) => {
  const latencies: number[] = []
  const failures: string[] = []
  let running = true
  const done = (async () => {
    while (running) {
      const started = performance.now()
      try {
        const status = await probeOnce(`${url}/healthz`)
        if (status !== 200) failures.push(`status ${status}`)
      } catch (error) {
        failures.push(String(error))
      }
      latencies.push(performance.now() - started)
      await new Promise((resolve) => setTimeout(resolve, 25))
    }
  })()
  return {
    async stop() {
      running = false
      await done
      return { latencies, failures }
    },
  }
}

export const percentile = (values: number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN
}

export interface Answer {
  status: number
  body: any
}

/** One HTTP request to the child (with `key` as its bearer token when given); the body parsed as JSON when it is JSON. */
export const call = async (
  url: string,
  method: string,
  path: string,
  body?: unknown,
  key?: string,
): Promise<Answer> => {
  const response = await fetch(url + path, {
    method,
    headers: {
      ...(body === undefined ? {} : { "content-type": "application/json" }),
      ...(key === undefined ? {} : { authorization: `Bearer ${key}` }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const text = await response.text()
  let parsed: unknown = text
  try {
    parsed = text ? JSON.parse(text) : null
  } catch {}
  return { status: response.status, body: parsed }
}

/**
 * Every execution id an answer names, and the answers that say their record was not stored: an id named
 * must be readable with GET /v1/executions/:id; an answer with stored:false must name none.
 */
export const executionIdsIn = (answers: Answer[]) => {
  const ids: string[] = []
  const unstoredNamingIds: unknown[] = []
  for (const { body } of answers) {
    if (!body || typeof body !== "object") continue
    if (typeof body.executionId === "string") ids.push(body.executionId)
    if (body.stored === false && body.executionId !== undefined) unstoredNamingIds.push(body)
  }
  return { ids, unstoredNamingIds }
}

/** The ids (of those given) that GET /v1/executions/:id does not find. */
export const missingExecutions = async (url: string, ids: string[]): Promise<string[]> => {
  const missing: string[] = []
  for (const id of ids) if ((await call(url, "GET", `/v1/executions/${id}`)).status !== 200) missing.push(id)
  return missing
}
