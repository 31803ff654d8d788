import { describe, expect, it } from "vitest"
import { checkConfig } from "../src/config.js"
import { redactConfig } from "../src/config-secrets.js"

describe("checkConfig", () => {
  it.each([
    [{}, /needs "transport"/],
    [{ transport: { type: "ws" } }, /must be "stdio" or "http"/],
    [{ transport: { type: "stdio" } }, /command must be a non-empty string/],
    [{ transport: { type: "stdio", command: "node", args: "x" } }, /args must be an array of strings/],
    [{ transport: { type: "stdio", command: "node", env: { A: 1 } } }, /env must be an object of string values/],
    [{ transport: { type: "http", url: "ftp://x" } }, /must be http or https/],
    [{ transport: { type: "http", url: "http://x", headers: [] } }, /headers must be an object/],
    [{ transport: { type: "http", url: "http://me:pw@x/mcp" } }, /must not carry a user or password/],
    [{ transport: { type: "http", url: "http://me@x/mcp" } }, /must not carry a user or password/],
  ])("rejects %j", (config, message) => {
    const checked = checkConfig(config)
    expect(checked.ok).toBe(false)
    if (!checked.ok) {
      expect(checked.reason).toBe("invalid")
      expect(checked.message).toMatch(message)
    }
  })

  it("never echoes a URL it refuses, which may hold a token", () => {
    for (const url of [
      "mcp.example.com/mcp?token=ghp_SECRET123",
      7,
      "ftp://x/ghp_SECRET123",
      "http://me:ghp_SECRET123@x",
    ]) {
      const checked = checkConfig({ transport: { type: "http", url } })
      expect(checked.ok).toBe(false)
      if (!checked.ok) {
        expect(checked.message).toMatch(/^transport\.url /)
        expect(checked.message).not.toMatch(/SECRET/)
      }
    }
  })

  it("fills defaults", () => {
    expect(checkConfig({ transport: { type: "stdio", command: "node" } })).toEqual({
      ok: true,
      config: { transport: { type: "stdio", command: "node", args: [], env: {} } },
    })
  })
})

it("redacts every header and env value, keeping the names", () => {
  const http = redactConfig({
    transport: { type: "http", url: "http://h/mcp", headers: { authorization: "Bearer s3cret" } },
  })
  expect(http).toEqual({ transport: { type: "http", url: "http://h/mcp", headers: { authorization: "<redacted>" } } })
  const stdio = redactConfig({ transport: { type: "stdio", command: "x", args: [], env: { TOKEN: "s3cret" } } })
  expect(JSON.stringify(stdio)).not.toContain("s3cret")
  expect(stdio).toMatchObject({ transport: { env: { TOKEN: "<redacted>" } } })
})
