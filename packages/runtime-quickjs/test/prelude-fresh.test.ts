import { readFile } from "node:fs/promises"
import { expect, test } from "vitest"
import { generatedPath, renderPreludeModule } from "../scripts/build-prelude.mjs"

test("prelude.generated.ts is the bundle of the prelude pieces (run `pnpm build:prelude` when this fails)", async () => {
  const committed = await readFile(generatedPath, "utf8")
  expect(committed).toBe(await renderPreludeModule())
})
