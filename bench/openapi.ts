/**
 * `pnpm bench:openapi`: OpenAPI sources (issue 27). Needs `pnpm build` (the Worker's deploy bundle). Prints:
 *   1. GitHub's spec (13 MB, 1,223 operations) parsed and compiled in a fresh process: JSON, and the same document
 *      as YAML (js-yaml), each against the engine's bare JSON.parse of the JSON text;
 *      and the smallest V8 heap (--max-old-space-size) the compile fits in, against the 128 MB of a Worker isolate;
 *   2. adding GitHub as a source (fetch from loopback, parse, compile, store) on the Node host (the built CLI's
 *      `serve`, a process of its own) and on the Worker in local workerd, each with its process's peak RSS above
 *      where it started (workerd's is the whole process: its D1 and runtime besides the isolate);
 *   3. a call through a script to the pets fixture service, on each host, as a ratio to a direct keep-alive GET of
 *      the same URL from this process, interleaved in the same run; and per call, from ten calls in one script
 *      less a script that makes none.
 */
import { execFileSync, spawn } from "node:child_process"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import http from "node:http"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { dump } from "js-yaml"
import { GITHUB_SPEC_PATH, freePort, startGithubService, startPetsService } from "@switchboard/fixtures"
import { TEST_ADMIN_KEY, startWorker } from "@switchboard/worker/local"
import { createClient } from "./execute/http-client.js"
import { timeInterleavedUs } from "./execute/measure.js"
import { isolateHeap } from "./openapi/isolate-heap.js"
import { childNamed, peakDuring } from "./openapi/memory.js"

/** `switchboard serve` from the built CLI (`pnpm build`), a process of its own, on a loopback port */
const spawnServe = (db: string) =>
  new Promise<{ url: string; pid: number; stop(): void }>((resolve, reject) => {
    const cli = fileURLToPath(new URL("../apps/server/dist/switchboard.mjs", import.meta.url))
    const server = spawn(process.execPath, [cli, "serve", "--port", "0", "--db", db], {
      stdio: ["ignore", "pipe", "ignore"],
    })
    let out = ""
    server.stdout.on("data", (chunk) => {
      out += chunk
      const url = /listening on (http:\/\/\S+)/.exec(out)?.[1]
      if (url) resolve({ url, pid: server.pid!, stop: () => server.kill("SIGTERM") })
    })
    server.once("exit", (code) => reject(new Error(`serve exited with ${code}`)))
  })

const dir = mkdtempSync(join(tmpdir(), "bench-openapi-"))
const child = fileURLToPath(new URL("./openapi/parse-child.ts", import.meta.url))
const tsx = fileURLToPath(new URL("../node_modules/.bin/tsx", import.meta.url))

const parseOnce = (file: string, mode: string, heapMb?: number) =>
  JSON.parse(
    execFileSync(tsx, [child, file, mode], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
      env: { ...process.env, NODE_OPTIONS: heapMb ? `--max-old-space-size=${heapMb}` : "" },
    }),
  ) as {
    ms: number
    peakMiB: number
    beforeMiB: number
    tools: number
  }

/** median of three fresh processes (by time), each process's own peak */
const parsed = (file: string, mode: string) => {
  const runs = [0, 1, 2].map(() => parseOnce(file, mode)).sort((a, b) => a.ms - b.ms)
  return runs[1]!
}

console.log("1. GitHub's spec, parsed and compiled in a fresh process (median of 3)")
const yamlFile = join(dir, "github.yaml")
writeFileSync(
  yamlFile,
  dump(JSON.parse(await (await import("node:fs/promises")).readFile(GITHUB_SPEC_PATH, "utf8")), {
    noRefs: true,
    lineWidth: -1,
  }),
)
const bare = parsed(GITHUB_SPEC_PATH, "json-only")
for (const [name, file] of [
  ["JSON", GITHUB_SPEC_PATH],
  ["YAML (js-yaml)", yamlFile],
] as const) {
  const r = parsed(file, "compile")
  const fits = [32, 48, 64, 96, 128].find((mb) => {
    try {
      return parseOnce(file, "compile", mb).tools > 0
    } catch {
      return false
    }
  })
  console.log(
    `   ${name}: ${r.ms.toFixed(0)} ms, ${r.tools} tools, peak RSS +${(r.peakMiB - r.beforeMiB).toFixed(0)} MiB | ` +
      `baseline JSON.parse alone: ${bare.ms.toFixed(0)} ms, +${(bare.peakMiB - bare.beforeMiB).toFixed(0)} MiB | ratio ${(r.ms / bare.ms).toFixed(1)}x | ` +
      `fits a V8 heap of ${fits ? `${fits} MB` : "none up to 128 MB"}`,
  )
}

const github = await startGithubService()
const pets = await startPetsService()
const node = await spawnServe(join(dir, "catalog.db"))
const inspectorPort = await freePort()
const worker = await startWorker({ inspectorPort })
const heap = await isolateHeap(inspectorPort)
const hosts = [
  { name: "node", url: node.url, pid: node.pid, headers: {} as Record<string, string> },
  {
    name: "worker",
    url: worker.url,
    pid: childNamed("workerd"),
    headers: { authorization: `Bearer ${TEST_ADMIN_KEY}` },
  },
].map((host) => ({ ...host, client: createClient(host.url, 1, host.headers) }))

console.log("2. adding GitHub's spec as a source (fetched from loopback, compiled, stored)")
const fetched = await peakDuring("self", async () => {
  const started = performance.now()
  JSON.parse(await (await fetch(`${github.url}/openapi.json`)).text())
  return performance.now() - started
})
for (const host of hosts) {
  const body = JSON.stringify({
    namespace: "github",
    kind: "openapi",
    spec: { url: `${github.url}/openapi.json` },
    baseUrl: github.url,
  })
  const post = async () => {
    const started = performance.now()
    const response = await host.client.post("/v1/sources", body)
    if (response.status !== 201) throw new Error(`${host.name}: ${response.status} ${response.text.slice(0, 300)}`)
    return performance.now() - started
  }
  const isolate = host.name === "worker" ? await heap.during(() => peakDuring(host.pid, post)) : undefined
  const added = isolate?.value ?? (await peakDuring(host.pid, post))
  console.log(
    `   ${host.name}: ${added.value.toFixed(0)} ms, peak RSS +${(added.peakMiB - added.beforeMiB).toFixed(0)} MiB ` +
      `(from ${added.beforeMiB.toFixed(0)} MiB${host.name === "worker" ? "; workerd's whole process, the isolate's limit is 128 MB" : ""}) | ` +
      `baseline fetch + JSON.parse in this process: ${fetched.value.toFixed(0)} ms | ratio ${(added.value / fetched.value).toFixed(1)}x`,
  )
  if (isolate)
    console.log(
      `   worker isolate's heap (inspector): used ${isolate.beforeMB.toFixed(0)} MB before, at most ${isolate.peakUsedMB.toFixed(0)} MB ` +
        `(garbage included), heap size at most ${isolate.heapMB.toFixed(0)} MB | the Worker's limit: 128 MB`,
    )
}

console.log("3. one call through a script to the pets service, against a direct GET of the same URL (median of 300)")
for (const host of hosts) {
  const added = await host.client.post(
    "/v1/sources",
    JSON.stringify({ namespace: "pets", kind: "openapi", spec: { url: `${pets.url}/openapi.yaml` } }),
  )
  if (added.status !== 201) throw new Error(`${host.name}: ${added.status} ${added.text}`)
}
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })
const direct = () =>
  new Promise<void>((resolve, reject) => {
    http
      .get(`${pets.url}/pets/1`, { agent }, (response) => {
        response.resume()
        response.on("end", resolve)
      })
      .on("error", reject)
  })
const call = (host: (typeof hosts)[number]) => async () => {
  const response = await host.client.post(
    "/v1/execute",
    JSON.stringify({ code: "return (await tools.pets.getPet({ petId: 1 })).data.id" }),
  )
  if (!response.text.includes('"result":1')) throw new Error(`${host.name}: ${response.text.slice(0, 300)}`)
}
const script = (host: (typeof hosts)[number], code: string, expected: string) => async () => {
  const response = await host.client.post("/v1/execute", JSON.stringify({ code }))
  if (!response.text.includes(expected)) throw new Error(`${host.name}: ${response.text.slice(0, 300)}`)
}
const ten = "let n = 0\nfor (let i = 0; i < 10; i++) n += (await tools.pets.getPet({ petId: 1 })).data.id\nreturn n"
const tasks = hosts.flatMap((host) => [
  call(host),
  script(host, "return 1", '"result":1'),
  script(host, ten, '"result":10'),
])
const [directUs, ...measured] = await timeInterleavedUs(300, [direct, ...tasks], 50)
hosts.forEach((host, index) => {
  const [oneUs, noneUs, tenUs] = measured.slice(index * 3, index * 3 + 3) as [number, number, number]
  const perCall = (tenUs - noneUs) / 10
  console.log(
    `   ${host.name}: execute with one call ${(oneUs / 1000).toFixed(2)} ms | ` +
      `baseline direct GET ${(directUs! / 1000).toFixed(2)} ms | ratio ${(oneUs / directUs!).toFixed(1)}x`,
  )
  console.log(
    `   ${host.name}: per call (ten in a script, less a script of none: ${(noneUs / 1000).toFixed(2)} ms) ${(perCall / 1000).toFixed(2)} ms | ` +
      `baseline direct GET ${(directUs! / 1000).toFixed(2)} ms | ratio ${(perCall / directUs!).toFixed(1)}x`,
  )
})

agent.destroy()
heap.close()
for (const host of hosts) host.client.close()
await worker.close()
node.stop()
await pets.close()
await github.close()
rmSync(dir, { recursive: true, force: true })
