/**
 * The console in Chromium against a real `switchboard serve` on SQLite: sign in with a key, what an execute key
 * sees, the sources page (add a stdio source, sync, remove), and keys (create shown once, revoke).
 */
import { randomBytes } from "node:crypto"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { checkPage, launchBrowser, strictPage } from "@switchboard/fixtures/browser"
import type { Browser } from "@switchboard/fixtures/browser"
import { builtDir } from "../support/built-cli.js"
import { tempDir } from "../support/helpers.js"
import { spawnServe } from "../support/process-harness.js"
import type { ServeProcess } from "../support/process-harness.js"

const adminKey = `sb_${randomBytes(32).toString("base64url")}`
let server: ServeProcess
let browser: Browser

beforeAll(async () => {
  const folder = tempDir()
  server = await spawnServe(
    ["--db", join(folder.dir, "catalog.db"), "--require-key", "--allow-stdio", "--workers", "1"],
    {
      env: { SWITCHBOARD_ADMIN_KEY: adminKey },
    },
  )
  browser = await launchBrowser()
})

afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

const executeKey = async () => {
  const response = await fetch(`${server.url}/v1/keys`, {
    method: "POST",
    headers: { authorization: `Bearer ${adminKey}`, "content-type": "application/json" },
    body: JSON.stringify({ name: "agent", scopes: ["execute"] }),
  })
  return ((await response.json()) as { secret: string }).secret
}

describe("the console, signed in with a key", () => {
  it("asks for a key, refuses a wrong one, and with an admin key adds a stdio source, syncs and removes it", async () => {
    const { page, problems, close } = await strictPage(browser)
    await page.goto(server.url)
    await checkPage(page)
    await page.getByLabel("API key").fill("sb_wrong")
    await page.getByRole("button", { name: "Sign in" }).click()
    await page.getByRole("alert").filter({ hasText: "unauthorized" }).waitFor()

    await page.getByLabel("API key").fill(adminKey)
    await page.getByRole("button", { name: "Sign in" }).click()
    await page.getByTestId("scope").filter({ hasText: "admin" }).waitFor()
    expect(await page.evaluate("document.cookie")).toBe("")
    expect(await page.evaluate(`sessionStorage.getItem("switchboard.key")`)).toBe(adminKey)

    await page.getByLabel("Namespace").fill("demo")
    await page.getByLabel("Command", { exact: true }).fill(process.execPath)
    await page.getByLabel("Arguments, one a line").fill(join(builtDir, "demo-server.mjs"))
    await page.getByRole("button", { name: "Add and sync" }).click()
    const row = page.locator('tr[data-source="demo"]')
    await row.waitFor()
    expect(await row.textContent()).toContain("ready")
    expect(await row.locator("td").nth(3).textContent()).toBe("4")
    await checkPage(page)

    await row.getByRole("button", { name: "Secrets of demo" }).click()
    await page.getByLabel(/Fields to replace/).fill('{ "transport": { "env": { "DEMO_TOKEN": "s3cret" } } }')
    await page.getByRole("button", { name: "Replace and sync" }).click()
    await page.getByRole("form", { name: "Change the secrets of demo" }).waitFor({ state: "detached" })
    await row.filter({ hasText: "ready" }).waitFor()
    const listed = await fetch(`${server.url}/v1/sources`, { headers: { authorization: `Bearer ${adminKey}` } })
    expect(JSON.stringify(await listed.json())).toContain('"DEMO_TOKEN":"<redacted>"')
    await row.getByRole("button", { name: "Sync demo" }).click()
    await page.getByRole("alert").waitFor({ state: "detached" })
    page.once("dialog", (dialog) => void dialog.accept())
    await row.getByRole("button", { name: "Remove demo" }).click()
    await row.waitFor({ state: "detached" })
    expect(problems).toEqual([])
    await close()
  })

  it("shows an execute key no admin page and no source actions", async () => {
    const { page, problems, close } = await strictPage(browser)
    await page.goto(server.url)
    await page.getByLabel("API key").fill(await executeKey())
    await page.getByRole("button", { name: "Sign in" }).click()
    await page.getByTestId("scope").filter({ hasText: "execute" }).waitFor()
    const nav = page.getByRole("navigation", { name: "Pages" })
    expect(await nav.getByRole("link").allTextContents()).toEqual(["Sources", "Tools", "Playground", "Activity"])
    expect(await page.getByRole("form", { name: "Add a source" }).count()).toBe(0)
    // a link to an admin page shows the sources instead; the server refuses the API call anyway
    await page.goto(`${server.url}/#/keys`)
    await page.getByRole("heading", { name: "Sources" }).waitFor()
    expect(problems).toEqual([])
    await close()
  })

  it("creates a key, shows its secret once, and revokes it", async () => {
    const { page, problems, close } = await strictPage(browser)
    await page.goto(server.url)
    await page.getByLabel("API key").fill(adminKey)
    await page.getByRole("button", { name: "Sign in" }).click()
    await page.getByRole("link", { name: "Keys" }).click()
    await page.getByLabel("Name").fill("ci-bot")
    await page.getByLabel("Scope").selectOption("read")
    await page.getByRole("button", { name: "Create" }).click()
    const secret = await page.getByTestId("new-secret").textContent()
    expect(secret).toMatch(/^sb_/)
    await checkPage(page)
    const live = await fetch(`${server.url}/v1/sources`, { headers: { authorization: `Bearer ${secret}` } })
    expect(live.status).toBe(200)

    await page.locator('tr[data-key="ci-bot"]').getByRole("button", { name: "Revoke ci-bot" }).click()
    await page.locator('tr[data-key="ci-bot"]').filter({ hasText: "revoked" }).waitFor()
    const revoked = await fetch(`${server.url}/v1/sources`, { headers: { authorization: `Bearer ${secret}` } })
    expect(revoked.status).toBe(401)
    // the secret is not shown again once the page is left
    await page.reload()
    expect(await page.getByTestId("new-secret").count()).toBe(0)
    expect(problems).toEqual([])
    await close()
  })
})

describe("the console on a loopback server without keys", () => {
  it("opens directly, as admin, with no key asked", async () => {
    const folder = tempDir()
    const open = await spawnServe(["--db", join(folder.dir, "open.db"), "--workers", "1"])
    try {
      const { page, problems, close } = await strictPage(browser)
      await page.goto(open.url)
      await page.getByRole("heading", { name: "Sources" }).waitFor()
      expect(await page.getByTestId("scope").textContent()).toContain("no key needed")
      expect(await page.getByLabel("API key").count()).toBe(0)
      expect(problems).toEqual([])
      await close()
    } finally {
      await open.stop()
    }
  })
})
