// `npm run demo` and `pnpm worker:dev`: say at once when the port is taken, then set up (scripts/setup: the install,
// then the build, which turbo replays from its cache when no input changed), then start. Plain Node: on a fresh
// clone nothing is installed yet.
//   node scripts/start.mjs demo [switchboard demo's options]    the server, `--port N` (4747) and `--host H` as given
//   node scripts/start.mjs worker [--port N]                    the Worker in workerd ($PORT or 8787)
import { spawn, spawnSync } from "node:child_process"
import { createServer } from "node:net"
import { fileURLToPath } from "node:url"

const root = fileURLToPath(new URL("..", import.meta.url))
const [what, ...args] = process.argv.slice(2)

/** the value of `--name N` or `--name=N` in args */
const option = (name) => {
  for (const [i, arg] of args.entries()) {
    if (arg === `--${name}`) return args[i + 1]
    if (arg.startsWith(`--${name}=`)) return arg.slice(name.length + 3)
  }
  return undefined
}

const isWorker = what === "worker"
if (!isWorker && what !== "demo") {
  console.error("usage: node scripts/start.mjs demo|worker [options]")
  process.exit(2)
}
const port = Number(option("port") ?? (isWorker ? (process.env.PORT ?? 8787) : 4747))
const host = option("host") ?? "127.0.0.1"

/** whether something already listens on host:port (another demo, say): found by trying to listen there */
const taken = () =>
  new Promise((resolve) => {
    const probe = createServer()
    probe.once("error", (error) => resolve(error.code === "EADDRINUSE" ? true : (probe.close(), false)))
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve(false)))
  })

if (Number.isInteger(port) && port > 0 && (await taken())) {
  const again = isWorker ? `PORT=${port + 1} pnpm worker:dev` : `npm run demo -- --port ${port + 1}`
  console.error(`switchboard: ${host}:${port} is in use (another server?). Stop it, or choose another port: ${again}`)
  process.exit(1)
}

const setup = spawnSync("bash", [`${root}scripts/setup`], { stdio: "inherit" })
if (setup.status !== 0) process.exit(setup.status ?? 1)

const [command, commandArgs, cwd] = isWorker
  ? ["node", [`${root}apps/worker/scripts/dev.mjs`], `${root}apps/worker`]
  : [process.execPath, [`${root}apps/server/dist/switchboard.mjs`, "demo", ...args], process.cwd()]
const child = spawn(command, commandArgs, {
  cwd,
  stdio: "inherit",
  env: isWorker ? { ...process.env, PORT: String(port) } : process.env,
})
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal))
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)))
