import { buildCli } from "../scripts/build-cli.mjs"
import { buildGrepWorker } from "../scripts/build-grep-worker.mjs"

export default async function setup() {
  await buildGrepWorker()
  // the tests that spawn `switchboard` run the built CLI (test/built-cli.ts), built from these sources
  await buildCli()
}
