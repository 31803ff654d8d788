/**
 * Every command of a group reads its bundle's code cache as the build wrote it (src/load-built.ts): V8 refuses a
 * cache written under other V8 flags, and a command that set other flags than the one that wrote it would compile
 * the whole bundle again and write the cache anew, so the next command of the other kind would pay the same.
 */
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { expect, it } from "vitest"
import { builtDir } from "../support/built-cli.js"
import { runCli } from "../support/run-cli.js"

const hostCache = () => readFileSync(join(builtDir, "lib/host.cjs.cache"))

it("serve, run and mcp share the host bundle's cache: none of them writes it again", async () => {
  await runCli(["serve", "--help"])
  const written = hostCache()
  const ran = await runCli(["run", "-", "--db", ":memory:"], { input: "return 1" })
  expect(ran.stdout).toBe("1\n")
  expect(hostCache().equals(written)).toBe(true)
  await runCli(["mcp", "--help"])
  expect(hostCache().equals(written)).toBe(true)
})
