import { Command } from "commander"
import { expect, it } from "vitest"
import { addFlags, parsedFlags } from "../cli/define.js"
import { serveFlags } from "../cli/command-flags.js"
import { readConfigText } from "./config-file.js"
import { withFileLimits, withFileSettings } from "./serve-config.js"

const file = readConfigText(
  "f.json",
  JSON.stringify({
    server: {
      db: "./file.db",
      port: 9000,
      allowStdio: true,
      allowStdioCodeEnv: true,
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
  // serve's own flags, parsed as the CLI parses them; --db left at what serve takes without it
  const serve = addFlags(new Command("serve"), serveFlags).parse(
    ["--port", "4747", "--host", "::1", "--retain", "7d"],
    {
      from: "user",
    },
  )
  const { values, given } = parsedFlags(serve)
  const flags = { ...(values as Record<string, unknown>), db: "./default.db" } as Parameters<typeof withFileSettings>[0]
  expect(withFileSettings(flags, given, file.config)).toMatchObject({
    db: "./file.db",
    host: "::1",
    // given on the command line, though it is the default
    port: "4747",
    "allow-stdio": true,
    "allow-stdio-code-env": true,
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
