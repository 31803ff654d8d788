/**
 * core and the host must share one drizzle-orm: pnpm makes a copy per set of peer dependencies, and two
 * copies break the store's types (and waste memory). Adding a dependency that drizzle lists as a peer to one
 * package and not the other splits them; `pnpm dedupe` or the same dependency on both mends it.
 */
import { realpathSync } from "node:fs"
import { createRequire } from "node:module"
import { expect, it } from "vitest"

const resolveFrom = (pkg: string) => realpathSync(createRequire(new URL(pkg, import.meta.url)).resolve("drizzle-orm"))

it("packages/core and apps/server resolve the same drizzle-orm", () => {
  expect(resolveFrom("../../../../packages/core/package.json")).toBe(resolveFrom("../../package.json"))
})
