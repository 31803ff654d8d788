import { expect, it } from "vitest"
import { parseBearerChallenge } from "./www-authenticate.js"

it("reads a Bearer challenge's resource_metadata, scope and error, quoted or not", () => {
  expect(
    parseBearerChallenge(
      'Bearer error="invalid_token", error_description="expired", ' +
        'resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp", ' +
        'scope="files:read  files:write"',
    ),
  ).toEqual({
    error: "invalid_token",
    resourceMetadata: "https://mcp.example.com/.well-known/oauth-protected-resource/mcp",
    scope: "files:read  files:write",
  })
  expect(parseBearerChallenge("bearer scope=read")).toEqual({ scope: "read" })
})

it("finds the Bearer challenge among others, and none where there is none", () => {
  expect(parseBearerChallenge('Basic realm="x", Bearer resource_metadata="https://a.example/m"')).toEqual({
    resourceMetadata: "https://a.example/m",
  })
  expect(parseBearerChallenge('Negotiate abc==, Bearer realm="r"')).toEqual({})
  expect(parseBearerChallenge('Basic realm="x"')).toBeNull()
  expect(parseBearerChallenge(null)).toBeNull()
  expect(parseBearerChallenge("")).toBeNull()
})

it("keeps an escaped quote inside a quoted value, and stops at 8 KiB", () => {
  expect(parseBearerChallenge('Bearer error_description="a \\"b\\"", scope="x"')).toEqual({ scope: "x" })
  expect(parseBearerChallenge(`Bearer scope="${"a".repeat(20_000)}"`)?.scope?.length).toBeLessThan(8192)
})
