/**
 * `switchboard sources login` as a person runs it, the built CLI in a child process: on the local catalog the browser
 * comes back to the command's own loopback listener; with `--url` the server's callback finishes the login and the
 * command waits until the source says so. The browser's part is a fetch that follows the authorization server's
 * redirect (the MCP SDK's authorization server approves at once); Chromium drives a real login page in
 * oauth-browser.test.ts.
 */
import { join } from "node:path"
import { afterAll, beforeAll, expect, it } from "vitest"
import { startSdkAuthServer } from "@switchboard/fixtures"
import type { SdkAuthServer } from "@switchboard/fixtures"
import { loginFromCli } from "../support/cli-login.js"
import { startTestServer, tempDir } from "../support/helpers.js"
import { runCli } from "../support/run-cli.js"

let upstream: SdkAuthServer
const dir = tempDir()
beforeAll(async () => {
  upstream = await startSdkAuthServer()
})
afterAll(async () => {
  await upstream?.close()
  dir.remove()
})

/** runs the command; once it prints the URL, opens it as a browser would (following redirects to the callback) */
const loginWithBrowser = (args: string[]) =>
  loginFromCli(args, async (url) => {
    const answer = await fetch(url, { redirect: "manual" })
    return (await fetch(answer.headers.get("location")!)).text()
  })

it("adds a source that needs a login, then logs it in on a loopback port of this machine", async () => {
  const db = join(dir.dir, "local.db")
  const init = await runCli(["init", "--db", db])
  expect(init.status, init.stderr).toBe(0)
  const added = await runCli(["sources", "add", "docs", "--http", upstream.mcpUrl, "--db", db])
  expect(added.status, added.stderr).toBe(0)
  expect(added.stdout).toContain("added docs: 0 tools")
  expect(added.stdout).toContain("switchboard sources login docs")
  const listed = await runCli(["sources", "list", "--db", db])
  expect(listed.stdout).toContain("needs_login")

  const login = await loginWithBrowser(["sources", "login", "docs", "--db", db])
  expect(login.status, login.stderr).toBe(0)
  expect(login.stderr).toContain("Open this URL in a browser")
  expect(login.page).toContain("Logged in")
  expect(login.stdout).toContain("logged in to docs: 2 tools")
  const redirect = new URL(new URL(login.stdout.split("\n")[0]!).searchParams.get("redirect_uri")!)
  expect(redirect.hostname).toBe("127.0.0.1")

  const call = await runCli(["call", "docs.add", '{"a":2,"b":3}', "--db", db])
  expect(call.status, call.stderr).toBe(0)
  expect(call.stdout.trim()).toBe('{"sum":5}')
})

it("with --url, asks the server for the URL and waits until its callback completes the login", async () => {
  const server = await startTestServer()
  try {
    const added = await server.request("POST", "/v1/sources", {
      namespace: "remote",
      kind: "mcp",
      transport: { type: "http", url: upstream.mcpUrl },
    })
    expect(added.status).toBe(201)
    const login = await loginWithBrowser(["sources", "login", "remote", "--url", server.url])
    expect(login.status, login.stderr).toBe(0)
    expect(login.page).toContain("Logged in")
    expect(login.stdout).toContain("logged in to remote: 2 tools")
    const redirect = new URL(login.stdout.split("\n")[0]!).searchParams.get("redirect_uri")
    expect(redirect).toBe(`${server.url}/v1/oauth/callback`)
  } finally {
    await server.stop()
  }
})
