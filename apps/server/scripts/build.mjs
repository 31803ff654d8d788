// `pnpm build`: the search thread's bundle, then the built CLI (which carries a copy of it).
import { buildCli } from "./build-cli.mjs"
import { buildGrepWorker } from "./build-grep-worker.mjs"

await buildGrepWorker()
await buildCli()
