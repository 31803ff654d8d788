/**
 * Issue 30, finding 4: credentials in a stdio source's arguments, in the forms servers are configured with, are
 * named secret (so core seals them at rest), redacted when shown, absent for a viewer without admin, and scrubbed
 * from text; arguments that are no credential stay readable.
 */
import { describe, expect, it } from "vitest"
import { redactConfig, scrubSecrets, secretFields } from "../src/config-secrets.js"
import type { McpSourceConfig } from "../src/config.js"

const stdio = (args: string[]): McpSourceConfig => ({ transport: { type: "stdio", command: "npx", args, env: {} } })

describe("a credential among a stdio source's arguments", () => {
  it.each([
    [
      "a Postgres URL with a password",
      ["-y", "@modelcontextprotocol/server-postgres", "postgresql://app:PgPassw0rd_s3cr3t@db.internal:5432/app"],
      "PgPassw0rd_s3cr3t",
      "postgresql://<redacted>:<redacted>@db.internal:5432/app",
    ],
    ["a header after -H", ["mcp-remote", "-H", "X-Api-Key: apikey_9f8e7d6c5b"], "apikey_9f8e7d6c5b", "<redacted>"],
    [
      "--pat",
      ["server", "--pat", "ghp_abcdefghijklmnopqrstuvwxyz0123456789"],
      "ghp_abcdefghijklmnopqrstuvwxyz0123456789",
      "<redacted>",
    ],
    ["-p", ["redis-mcp", "-p", "Sh0rtFlagPass"], "Sh0rtFlagPass", "<redacted>"],
    ["--pass", ["mail-mcp", "--pass", "LongFlagPass_42"], "LongFlagPass_42", "<redacted>"],
    [
      "a webhook URL with a token in its path",
      ["notify-mcp", "--webhook", "https://hooks.slack.com/services/T0123ABCD/B0456EFGH/WebhookTok3nXYZabc123"],
      "WebhookTok3nXYZabc123",
      "https://hooks.slack.com/services/<redacted>/<redacted>/<redacted>",
    ],
    [
      "a webhook URL with a token in its query",
      ["notify-mcp", "https://hooks.example.com/in?token=QueryTok_77aa"],
      "QueryTok_77aa",
      "https://hooks.example.com/in?token=<redacted>",
    ],
    [
      "NAME=value for docker -e",
      ["run", "-e", "GITHUB_PERSONAL_ACCESS_TOKEN=tokenValue_5c4b3a"],
      "tokenValue_5c4b3a",
      "<redacted>",
    ],
    [
      "a token known by its prefix",
      ["server", "glpat-abcdefghij0123456789"],
      "glpat-abcdefghij0123456789",
      "<redacted>",
    ],
  ])("%s is sealed, redacted, hidden from a reader and scrubbed", (_name, args, secret, shown) => {
    const config = stdio(args)
    const index = args.length - 1
    expect(secretFields(config)).toEqual([["transport", "args", String(index)]])
    const view = redactConfig(config) as { transport: { args: string[] } }
    expect(view.transport.args).toEqual([...args.slice(0, -1), shown])
    expect(JSON.stringify(view)).not.toContain(secret)
    expect((redactConfig(config, "reader") as { transport: object }).transport).not.toHaveProperty("args")
    expect(scrubSecrets(config, `the server said: ${secret} was refused`)).toBe(
      "the server said: <redacted> was refused",
    )
  })

  it("arguments that are no credential stay readable and unsealed", () => {
    const args = [
      "-y",
      "@modelcontextprotocol/server-filesystem",
      "--path",
      "/srv/data",
      "--max-tokens",
      "100",
      "localhost:5432",
      "https://mcp.example.com/mcp",
      "postgresql://db.internal:5432/app",
      "LOG_LEVEL=debug",
      "Accept: application/json",
      "--verbose",
    ]
    expect(secretFields(stdio(args))).toEqual([])
    expect((redactConfig(stdio(args)) as { transport: { args: string[] } }).transport.args).toEqual(args)
  })

  it("names the same arguments when they are sealed, so each is opened on read", () => {
    const args = [
      "-H",
      "X-Api-Key: apikey_9f8e7d6c5b",
      "--token",
      "--pass",
      "next",
      "postgresql://u:pw_1234@h/db",
      "--pat",
      "ghp_x",
    ]
    const paths = secretFields(stdio(args))
    const sealed = args.map((arg, index) => (paths.some((p) => p[2] === String(index)) ? `enc:v1:k:iv:${index}` : arg))
    expect(secretFields(stdio(sealed))).toEqual(paths)
    // a flag's value that looks like a flag is taken as the value, and says nothing of what follows it
    expect(paths.map((p) => Number(p[2]))).toEqual([1, 3, 5, 7])
  })
})
