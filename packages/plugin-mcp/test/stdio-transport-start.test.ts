/**
 * The stdio transport loads the SDK's helpers before it spawns (src/node/stdio-sdk.ts): a close, or a second start,
 * that comes meanwhile must not leave a server process running that nothing will ever stop.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, expect, it } from "vitest"
import { BoundedStdioTransport } from "../src/node/stdio-transport.js"

const dir = mkdtempSync(join(tmpdir(), "stdio-start-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** a server that leaves a file behind as soon as it runs, then waits for its stdin to end */
const marking = (marker: string) =>
  new BoundedStdioTransport(
    {
      command: process.execPath,
      args: ["-e", `require("node:fs").writeFileSync(${JSON.stringify(marker)}, "ran"); process.stdin.resume()`],
    },
    () => {},
  )

const settle = () => new Promise((resolve) => setTimeout(resolve, 700))

it("closed while it starts, it starts no process", async () => {
  const marker = join(dir, "closed")
  const transport = marking(marker)
  const started = transport.start()
  await transport.close()
  await expect(started).rejects.toThrow(/closed before/)
  await settle()
  expect(existsSync(marker)).toBe(false)
})

it("started twice at once, the second is refused and one process runs, which close stops", async () => {
  const marker = join(dir, "twice")
  const transport = marking(marker)
  const first = transport.start()
  await expect(transport.start()).rejects.toThrow(/already started/)
  await first
  for (let i = 0; i < 50 && !existsSync(marker); i++) await new Promise((resolve) => setTimeout(resolve, 20))
  expect(existsSync(marker)).toBe(true)
  await transport.close()
})
