import { expect, it } from "vitest"
import { mergeConfig } from "./config-merge.js"

const stored = {
  spec: { url: "https://api.example.com/openapi.json" },
  auth: { apiKey: "k", oauth: { clientId: "a", clientSecret: "secret-a", scopes: ["read"] } },
  headers: {},
}
const moved = (auth: Record<string, unknown>) => (mergeConfig(stored, { auth }) as { loginMoved: boolean }).loginMoved

it("replaces auth whole, and says when the OAuth settings move the login", () => {
  expect(mergeConfig(stored, { headers: { "x-trace": "on" } })).toMatchObject({
    ok: true,
    config: { auth: stored.auth, headers: { "x-trace": "on" } },
    loginMoved: false,
  })
  // the same client with a new secret or scopes keeps it
  expect(moved({ oauth: { clientId: "a", clientSecret: "secret-b", scopes: ["read", "write"] } })).toBe(false)
  // another client, grant, endpoint, resource or scheme, or none, moves it
  expect(moved({ oauth: { clientId: "b" } })).toBe(true)
  expect(moved({ oauth: { clientId: "a", tokenUrl: "https://other.example.com/token" } })).toBe(true)
  expect(moved({ oauth: { clientId: "a", resource: "https://api.example.com/" } })).toBe(true)
  expect(moved({ other: { clientId: "a" } })).toBe(true)
  expect(moved({ oauth: "a-token-got-elsewhere" })).toBe(true)
})

it("moves a client-credentials login with any change of its settings", () => {
  const machine = { ...stored, auth: { oauth: { grant: "client_credentials", clientId: "m", clientSecret: "s-1" } } }
  const patch = { auth: { oauth: { grant: "client_credentials", clientId: "m", clientSecret: "s-2" } } }
  expect(mergeConfig(machine, patch)).toMatchObject({ ok: true, loginMoved: true })
})

it("refuses anything but auth and headers, naming them", () => {
  expect(mergeConfig(stored, { baseUrl: "https://x" })).toMatchObject({
    ok: false,
    message: expect.stringContaining('replaces only "auth" or "headers"'),
  })
})
