import { parseArgs } from "node:util"
import { expect, it } from "vitest"
import { readConfigText } from "./config-file.js"
import { givenFlags, withFileLimits, withFileSettings } from "./serve-config.js"

const options = {
  db: { type: "string", default: "./default.db" },
  host: { type: "string", default: "127.0.0.1" },
  port: { type: "string", default: "4747" },
  "allow-stdio": { type: "boolean", default: false },
  "allow-private-sources": { type: "boolean", default: false },
  "require-key": { type: "boolean", default: false },
  "sync-ttl": { type: "string", default: "15m" },
  retain: { type: "string" },
  "retain-executions": { type: "string" },
  "max-connections-per-address": { type: "string" },
} as const

const file = readConfigText(
  "f.json",
  JSON.stringify({
    server: {
      db: "./file.db",
      port: 9000,
      allowStdio: true,
      syncTtl: "1h",
      retain: "30d",
      retainExecutions: 5000,
      maxConnectionsPerAddress: 20,
    },
    limits: { timeoutMs: 5000, maxToolCalls: 10 },
  }),
)

it("takes the file's settings and limits, under the flags given on the command line", () => {
  if (!file.ok) throw new Error(file.problems.join("\n"))
  const { values, tokens } = parseArgs({
    args: ["--port", "4747", "--host", "::1", "--retain", "7d"],
    options,
    tokens: true,
  })
  expect(withFileSettings(values, givenFlags(tokens), file.config)).toEqual({
    db: "./file.db",
    host: "::1",
    // given on the command line, though it is the default
    port: "4747",
    "allow-stdio": true,
    "allow-private-sources": false,
    "require-key": false,
    "sync-ttl": "1h",
    retain: "7d",
    "retain-executions": "5000",
    "max-connections-per-address": "20",
  })
  expect(withFileLimits({ limits: { timeoutMs: 1000 }, workers: 2 }, file.config)).toEqual({
    limits: { timeoutMs: 1000, maxToolCalls: 10 },
    workers: 2,
  })
  expect(withFileLimits({}, undefined)).toEqual({})
})
