/**
 * The sources page in Chromium against a real `switchboard serve`: an OpenAPI source added from a spec URL and from
 * a pasted spec, the server's refusal shown as it words it; and an MCP source behind OAuth (the MCP SDK's own
 * authorization server) shown as needing a login, connected with "Connect" (the login page opens in a new tab, the
 * server's callback completes it) and seen connected without a reload.
 */
import { randomBytes } from "node:crypto"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { PETS_SPEC_YAML, startPetsService, startSdkAuthServer } from "@switchboard/fixtures"
import type { PetsService, SdkAuthServer } from "@switchboard/fixtures"
import { checkPage, launchBrowser, strictPage } from "@switchboard/fixtures/browser"
import type { Browser, Page } from "@switchboard/fixtures/browser"
import { tempDir } from "../support/helpers.js"
import { spawnServe } from "../support/process-harness.js"
import type { ServeProcess } from "../support/process-harness.js"

const adminKey = `sb_${randomBytes(32).toString("base64url")}`
let server: ServeProcess
let browser: Browser
let pets: PetsService
let upstream: SdkAuthServer

beforeAll(async () => {
  const folder = tempDir()
  ;[server, pets, upstream, browser] = await Promise.all([
    spawnServe(["--db", join(folder.dir, "catalog.db"), "--require-key", "--workers", "1"], {
      env: { SWITCHBOARD_ADMIN_KEY: adminKey },
    }),
    startPetsService(),
    startSdkAuthServer(),
    launchBrowser(),
  ])
})

afterAll(async () => {
  await browser?.close()
  await server?.stop()
  await pets?.close()
  await upstream?.close()
})

const signedIn = async () => {
  const opened = await strictPage(browser)
  await opened.page.goto(server.url)
  await opened.page.getByLabel("API key").fill(adminKey)
  await opened.page.getByRole("button", { name: "Sign in" }).click()
  await opened.page.getByTestId("scope").filter({ hasText: "admin" }).waitFor()
  return opened
}

const addOpenApi = async (page: Page, namespace: string, spec: { url: string } | { inline: string }) => {
  await page.getByLabel("Namespace").fill(namespace)
  await page.getByRole("radio", { name: "OpenAPI" }).check()
  if ("url" in spec) await page.getByLabel("Spec URL").fill(spec.url)
  else {
    await page.getByRole("radio", { name: "pasted" }).check()
    await page.getByLabel("Spec (JSON or YAML)").fill(spec.inline)
  }
  await page.getByLabel(/^Base URL/).fill(pets.url)
  await page.getByRole("button", { name: "Add and sync" }).click()
}

const source = async (namespace: string) => {
  const answer = await fetch(`${server.url}/v1/sources/${namespace}`, {
    headers: { authorization: `Bearer ${adminKey}` },
  })
  return ((await answer.json()) as { source: Record<string, any> }).source
}

describe("OpenAPI sources from the page", () => {
  it("adds one from its spec's URL and one pasted, and shows a spec the server refuses as it words it", async () => {
    const { page, problems, close } = await signedIn()
    await addOpenApi(page, "pets", { url: `${pets.url}/openapi.yaml` })
    const byUrl = page.locator('tr[data-source="pets"]')
    await byUrl.filter({ hasText: "ready" }).waitFor()
    expect(await byUrl.locator("td").nth(1).textContent()).toBe("openapi")
    expect(Number(await byUrl.locator("td").nth(3).textContent())).toBeGreaterThan(5)

    // the spec's text, pasted: the server compiles it when it checks the source
    await addOpenApi(page, "pasted", { inline: PETS_SPEC_YAML })
    await page.locator('tr[data-source="pasted"]').filter({ hasText: "ready" }).waitFor()
    const tools = await fetch(`${server.url}/v1/tools?namespace=pasted`, {
      headers: { authorization: `Bearer ${adminKey}` },
    })
    expect(((await tools.json()) as { tools: unknown[] }).tools.length).toBeGreaterThan(5)

    // a pasted spec that is not one: the 400's own words, naming the place
    await addOpenApi(page, "broken", { inline: "openapi: 3.0.3\npaths:\n  /pets:\n    get: 7\n" })
    const refusal = page.getByRole("form", { name: "Add a source" }).getByRole("alert")
    await refusal.waitFor()
    const words = await refusal.textContent()
    expect(words).toContain("paths./pets.get")
    expect(words).toMatch(/\(invalid_request\)$/)
    expect(await page.locator('tr[data-source="broken"]').count()).toBe(0)
    await checkPage(page)
    expect(problems).toEqual([])
    await close()
  })
})

describe("a source behind OAuth", () => {
  it("shows it needs a login, connects it through the login page in a new tab, and shows it connected", async () => {
    const { page, problems, close } = await signedIn()
    await page.getByLabel("Namespace").fill("docs")
    await page.getByRole("radio", { name: "http" }).check()
    await page.getByLabel("URL").fill(upstream.mcpUrl)
    await page.getByRole("button", { name: "Add and sync" }).click()
    const row = page.locator('tr[data-source="docs"]')
    await row.filter({ hasText: "needs_login" }).waitFor()
    expect(await row.locator("td.auth").textContent()).toBe("needs login")
    expect((await source("docs")).auth.status).toBe("needs_login")
    await checkPage(page, "sources")

    // the login page opens in a tab of its own; the SDK's authorization server approves at once and sends that tab
    // to the server's callback, which completes the login
    const opened = page.waitForEvent("popup")
    await row.getByRole("button", { name: "Connect docs" }).click()
    const tab = await opened
    await tab.waitForURL(`${server.url}/v1/oauth/callback?**`)
    await tab.getByRole("heading", { name: "Logged in" }).waitFor()

    // this page learns it without a reload: connected, synced, its scopes shown
    await page.getByRole("alert").filter({ hasText: "docs is connected" }).waitFor()
    await row.filter({ hasText: "ready" }).waitFor()
    const auth = await row.locator("td.auth").textContent()
    expect(auth).toMatch(/^connected until .+ \(mcp:tools offline_access\)$/)
    expect(await row.locator("td").nth(3).textContent()).toBe("2")
    expect(await row.getByRole("button", { name: "Connect docs" }).count()).toBe(0)
    expect((await source("docs")).auth.status).toBe("connected")
    expect(problems).toEqual([])
    await close()
  })
})
