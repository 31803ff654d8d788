/**
 * `switchboard sources login` against oidc-provider, the person's part in Chromium: the built CLI in a child process
 * prints the authorization URL, Chromium signs in and consents on oidc-provider's pages and follows the redirect to
 * the command's loopback listener (or, with `--url`, to the server's callback), and the command prints that it
 * logged in, with the tools the login synced, and exits by itself, whatever the browser keeps open. Several rounds
 * of each, new logins of the same source, so a command that now and then stays alive, or reports a count read before
 * the login's sync ended, is caught. An OpenAPI source whose spec declares the provider logs in the same way.
 */
import { join } from "node:path"
import { afterAll, beforeAll, expect, it } from "vitest"
import { loginInChromium, startOidcAuthServer } from "@switchboard/fixtures"
import type { OidcAuthServer } from "@switchboard/fixtures"
import { loginFromCli } from "../support/cli-login.js"
import type { CliLogin } from "../support/cli-login.js"
import { startTestServer, tempDir } from "../support/helpers.js"
import { runCli } from "../support/run-cli.js"

const ROUNDS = 3
let upstream: OidcAuthServer
const dir = tempDir()
const db = join(dir.dir, "local.db")
beforeAll(async () => {
  // 30 s tokens: within the minute before expiry, every request the command's sync makes refreshes first; and a
  // tools/list that takes longer than the command's poll, so a count read before the login's sync ended is caught
  upstream = await startOidcAuthServer({ accessTtlSeconds: 30, toolsListDelayMs: 1500 })
})
afterAll(async () => {
  await upstream?.close()
  dir.remove()
})

/** runs `sources login`; once it prints the URL, Chromium logs in there while the command waits */
const loginInBrowser = (args: string[]) => loginFromCli(args, async (url) => (await loginInChromium(url)).page)

const loggedIn = (login: CliLogin, round: number, line: string) => {
  expect(login.page, `round ${round}: ${login.stderr}`).toContain("Logged in")
  expect(login.stdout, `round ${round}`).toContain(line)
  // the command ended by itself: it was not killed
  expect(login.status, `round ${round}: ${login.stderr}`).toBe(0)
}

it("adds a source that needs a login, and logs it in on this machine's loopback, round after round", async () => {
  expect((await runCli(["init", "--db", db])).status).toBe(0)
  const added = await runCli(["sources", "add", "oidc", "--http", upstream.mcpUrl, "--db", db])
  expect(added.status, added.stderr).toBe(0)
  expect(added.stdout).toContain("switchboard sources login oidc")

  for (let round = 1; round <= ROUNDS; round++)
    loggedIn(await loginInBrowser(["sources", "login", "oidc", "--db", db]), round, "logged in to oidc: 1 tool\n")
  const call = await runCli(["call", "oidc.whoami", "{}", "--db", db])
  expect(call.status, call.stderr).toBe(0)
  expect(JSON.parse(call.stdout)).toMatchObject({ sub: "ada", aud: upstream.mcpUrl })
}, 120_000)

it("with --url, the server's callback completes the login, and the command prints the tools it synced", async () => {
  const server = await startTestServer()
  try {
    const added = await server.request("POST", "/v1/sources", {
      namespace: "remote",
      kind: "mcp",
      transport: { type: "http", url: upstream.mcpUrl },
    })
    expect(added.status).toBe(201)
    for (let round = 1; round <= ROUNDS; round++)
      loggedIn(
        await loginInBrowser(["sources", "login", "remote", "--url", server.url]),
        round,
        "logged in to remote: 1 tool\n",
      )
  } finally {
    await server.stop()
  }
}, 120_000)

it("logs in an OpenAPI source whose spec declares the provider's flow, the same way", async () => {
  const added = await runCli(["sources", "add", "people", "--openapi", upstream.api.specUrl, "--db", db])
  expect(added.status, added.stderr).toBe(0)
  expect(added.stdout).toContain("switchboard sources login people")
  loggedIn(await loginInBrowser(["sources", "login", "people", "--db", db]), 1, "logged in to people: 1 tool\n")
  const call = await runCli(["call", "people.whoami", "{}", "--db", db])
  expect(call.status, call.stderr).toBe(0)
  expect(JSON.parse(call.stdout)).toMatchObject({ sub: "ada", aud: upstream.api.apiUrl, scope: "api:read" })
}, 60_000)
