import type { Metafile } from "esbuild"
import type { TestProject } from "vitest/node"
import { buildCli } from "../../scripts/build-cli.mjs"
import { buildGrepWorker } from "../../scripts/build-grep-worker.mjs"

declare module "vitest" {
  export interface ProvidedContext {
    /** the metafiles of the build below, which test/cli/built-cli.test.ts reads */
    builtCliMetafiles: Metafile[]
  }
}

export default async function setup(project: TestProject) {
  await buildGrepWorker()
  // the tests that spawn `switchboard` run the built CLI (test/support/built-cli.ts), built from these sources
  project.provide("builtCliMetafiles", await buildCli())
}
