/**
 * The console's catalog pages in Chromium against a real `switchboard serve`: search a tool, open its TypeScript
 * and run it from its form; write a script in the playground with completion for `tools.`, run it, see the result
 * and its calls; open the execution from Activity and grep its output; add and remove a policy rule.
 */
import { randomBytes } from "node:crypto"
import { join } from "node:path"
import { afterAll, beforeAll, expect, it } from "vitest"
import { checkPage, launchBrowser, strictPage } from "@switchboard/fixtures/browser"
import type { Browser, Page } from "@switchboard/fixtures/browser"
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
  const transport = { type: "stdio", command: process.execPath, args: [join(builtDir, "demo-server.mjs")] }
  const added = await fetch(`${server.url}/v1/sources`, {
    method: "POST",
    headers: { authorization: `Bearer ${adminKey}`, "content-type": "application/json" },
    body: JSON.stringify({ namespace: "demo", kind: "mcp", transport }),
  })
  expect(added.status).toBe(201)
  browser = await launchBrowser()
})

afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

const signedIn = async (hash: string) => {
  const opened = await strictPage(browser)
  await opened.page.goto(`${server.url}/${hash}`)
  await opened.page.getByLabel("API key").fill(adminKey)
  await opened.page.getByRole("button", { name: "Sign in" }).click()
  return opened
}

/** replaces the editor's text by typing, as a person would */
const typeScript = async (page: Page, text: string) => {
  await page.locator(".code-editor .cm-content").click()
  await page.keyboard.press("Control+A")
  await page.keyboard.press("Delete")
  await page.keyboard.insertText(text)
}

it("searches a tool, shows its TypeScript and policy, and runs it from the form", async () => {
  const { page, problems, close } = await signedIn("#/tools")
  await page.getByLabel("Search tools").fill("weather city")
  const first = page.getByRole("list", { name: "Tools" }).getByRole("link").first()
  await first.filter({ hasText: "demo.weather" }).waitFor()
  await first.click()
  await page.getByRole("heading", { name: "demo.weather" }).waitFor()
  expect(await page.locator(".code-view .cm-content").textContent()).toContain("temperature")
  expect(await page.getByTestId("output-source").textContent()).toBe("declared")
  expect(await page.getByTestId("tool-policy").textContent()).toMatch(/^allow/)
  await page.getByLabel("city (required)").fill("Paris")
  await page.getByRole("button", { name: "Run" }).click()
  await page.getByTestId("run-status").filter({ hasText: "ok" }).waitFor()
  expect(await page.getByTestId("run-raw").textContent()).toContain('"city": "Paris"')
  expect(await page.getByTestId("calls").textContent()).toContain("demo.weather")
  await checkPage(page, "tool")
  expect(problems).toEqual([])
  await close()
})

it("offers tools. completion in the playground, runs the script, and shows its result and calls", async () => {
  const { page, problems, close } = await signedIn("#/playground")
  await typeScript(page, "return tools.")
  const options = page.locator(".cm-tooltip-autocomplete [role=option]")
  await options.filter({ hasText: "demo" }).first().waitFor()
  await page.keyboard.insertText("demo.")
  await page.keyboard.press("Control+Space")
  await options.filter({ hasText: "weather" }).first().waitFor()
  expect(await options.allTextContents()).toEqual(expect.arrayContaining([expect.stringContaining("greet")]))

  const script = [
    "const lines = []",
    'for (const city of ["Oslo", "Lima", "Pune"]) {',
    "  const r = await tools.demo.weather({ city })",
    "  lines.push(`${r.data.city}: ${r.data.conditions}`)",
    "}",
    'return lines.join("\\n")',
  ].join("\n")
  await typeScript(page, script)
  await page.getByRole("button", { name: "Run", exact: true }).click()
  await page.getByTestId("run-status").filter({ hasText: "ok" }).waitFor()
  expect(await page.getByTestId("run-text").textContent()).toContain("Lima: ")
  expect(await page.getByTestId("calls").locator("tbody tr").count()).toBe(3)
  await checkPage(page, "playground")

  // the execution from Activity, and its output searched
  await page.getByRole("link", { name: "Activity" }).click()
  await page.getByTestId("executions").getByRole("link").first().waitFor()
  await checkPage(page, "activity")
  await page.getByTestId("executions").getByRole("link").first().click()
  await page.getByTestId("execution-status").filter({ hasText: "ok" }).waitFor()
  expect(await page.getByTestId("output").textContent()).toContain("Oslo: ")
  await page.getByLabel("Search the result (a regular expression)").fill("^Pune")
  await page.getByRole("button", { name: "Search" }).click()
  await page.getByTestId("matches").filter({ hasText: "3: Pune:" }).waitFor()
  await checkPage(page, "execution")
  expect(await page.getByTestId("calls").locator("tbody tr").count()).toBe(3)
  expect(problems).toEqual([])
  await close()
})

it("adds and removes a policy rule", async () => {
  const { page, problems, close } = await signedIn("#/policies")
  await page.getByLabel(/Tool path pattern/).fill("demo.greet")
  await page.getByLabel("Action").selectOption("block")
  await page.getByLabel("Reason").fill("no greetings today")
  await page.getByRole("button", { name: "Add rule" }).click()
  const row = page.locator('tr[data-policy="demo.greet"]')
  await row.filter({ hasText: "block" }).waitFor()
  await checkPage(page)
  await row.getByRole("button", { name: "Remove demo.greet" }).click()
  await row.waitFor({ state: "detached" })
  expect(problems).toEqual([])
  await close()
})
