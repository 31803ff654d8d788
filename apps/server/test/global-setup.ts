import { buildGrepWorker } from "../scripts/build-grep-worker.mjs"

export default async function setup() {
  await buildGrepWorker()
}
