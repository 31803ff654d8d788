import { readFile } from "node:fs/promises"
import { expect, test } from "vitest"
import { generatedPath, renderGrepWorker } from "../scripts/build-grep-worker.mjs"

test("grep-worker.generated.mjs is the bundle of src/grep/grep-worker.ts (run `pnpm build:grep-worker` when this fails)", async () => {
  expect(await readFile(generatedPath, "utf8")).toBe(await renderGrepWorker())
})
