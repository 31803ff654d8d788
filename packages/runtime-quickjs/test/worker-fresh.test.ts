import { readFile } from "node:fs/promises"
import { expect, test } from "vitest"
import { generatedPath, renderWorkerModule } from "../scripts/build-worker.mjs"

test("pool-worker.generated.mjs is the bundle of src/node/pool-worker.ts (run `pnpm build:worker` when this fails)", async () => {
  const committed = await readFile(generatedPath, "utf8")
  expect(committed).toBe(await renderWorkerModule())
})
