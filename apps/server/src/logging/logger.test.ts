/** The pino-backed logger: its line shape, its level, the pretty form, and the batched stderr destination. */
import { closeSync, openSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { afterAll, expect, it } from "vitest"
import { tempDir } from "../../test/support/helpers.js"
import { batchedDestination } from "./log-destination.js"
import { createStderrLogger } from "./logger.js"
import type { LogOptions } from "./logger.js"

const captured = (options: LogOptions = {}) => {
  const lines: string[] = []
  const logger = createStderrLogger({ ...options, destination: { write: (line: string) => void lines.push(line) } })
  return { logger, lines }
}

it("writes one JSON object a line: level by name, ISO time, the details, the message", () => {
  const { logger, lines } = captured()
  logger.info("request", { method: "POST", route: "/v1/execute", status: 200, durationMs: 1.5, executionId: undefined })
  logger.warn("plain")
  expect(lines.map((line) => JSON.parse(line))).toEqual([
    {
      level: "info",
      time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      method: "POST",
      route: "/v1/execute",
      status: 200,
      durationMs: 1.5,
      message: "request",
    },
    { level: "warn", time: expect.any(String), message: "plain" },
  ])
  expect(lines.every((line) => line.endsWith("}\n") && !line.slice(0, -1).includes("\n"))).toBe(true)
})

it("leaves out what is below its level: at warn, no request lines", () => {
  const { logger, lines } = captured({ level: "warn" })
  logger.info("request", { status: 200 })
  logger.error("internal error in x", { correlationId: "c1" })
  expect(lines.map((line) => JSON.parse(line).message)).toEqual(["internal error in x"])
})

it("pretty: a request as method, route, status and time, then ids; other events as message and fields", () => {
  const { logger, lines } = captured({ format: "pretty" })
  logger.info("request", {
    method: "GET",
    route: "/v1/executions/:id",
    status: 404,
    durationMs: 0.8,
    executionId: "e1",
    keyId: "k1",
    errorCode: "not_found",
  })
  logger.info("request", { method: "GET", route: null, status: 404, durationMs: 0.2 })
  logger.warn("lazy re-sync failed", { namespace: "gh", error: "the upstream is down" })
  expect(lines).toEqual([
    expect.stringMatching(
      /^\d\d:\d\d:\d\d\.\d{3} INFO {2}GET \/v1\/executions\/:id 404 0\.8 ms execution=e1 key=k1 error=not_found\n$/,
    ),
    expect.stringMatching(/ INFO {2}GET \(no route\) 404 0\.2 ms\n$/),
    expect.stringMatching(/ WARN {2}lazy re-sync failed namespace=gh error="the upstream is down"\n$/),
  ])
})

const folder = tempDir()
afterAll(() => folder.remove())

it("batched stderr: a line after a quiet spell goes at once, lines close behind it together a moment later", async () => {
  const file = join(folder.dir, "log")
  const fd = openSync(file, "a")
  const out = batchedDestination(fd)
  out.write("one\n")
  expect(readFileSync(file, "utf8")).toBe("one\n")
  out.write("two\n")
  out.write("three\n")
  // not yet: they wait for the window the first write opened
  expect(readFileSync(file, "utf8")).toBe("one\n")
  for (let i = 0; i < 100 && readFileSync(file, "utf8") === "one\n"; i++)
    await new Promise((resolve) => setTimeout(resolve, 10))
  expect(readFileSync(file, "utf8")).toBe("one\ntwo\nthree\n")
  // every logger on this descriptor shares the one batcher (and the exit hook flushes one per descriptor)
  expect(batchedDestination(fd)).toBe(out)
  closeSync(fd)
})
