/**
 * The console's catalog pages in Chromium against a real `switchboard serve`: search a tool, open its TypeScript
 * and run it from its form; a tool's annotations; write a script in the playground with completion for `tools.`,
 * run it, see the result and its calls; TypeScript's errors underlined in the playground; images a script returns;
 * open the execution from Activity and grep its output; add and remove a policy rule.
 */
import { randomBytes } from "node:crypto"
import { join } from "node:path"
import { afterAll, beforeAll, expect, it } from "vitest"
import { fixtureCommand } from "@switchboard/fixtures"
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
  const demo = { type: "stdio", command: process.execPath, args: [join(builtDir, "demo-server.mjs")] }
  const ledger = { type: "stdio", ...fixtureCommand("ledger-server"), env: { LEDGER_FILE: join(folder.dir, "ledger") } }
  const contract = { type: "stdio", ...fixtureCommand("contract-stdio") }
  for (const [namespace, transport] of Object.entries({ demo, ledger, contract })) {
    const added = await fetch(`${server.url}/v1/sources`, {
      method: "POST",
      headers: { authorization: `Bearer ${adminKey}`, "content-type": "application/json" },
      body: JSON.stringify({ namespace, kind: "mcp", transport }),
    })
    expect(added.status, await added.text()).toBe(201)
  }
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

/** an image's width as decoded, 0 until it is (the server's tests are typed without the DOM) */
const naturalWidth = (image: ReturnType<Page["getByRole"]>) =>
  image.evaluate((img) => {
    const shown = img as unknown as { complete: boolean; naturalWidth: number }
    return shown.complete ? shown.naturalWidth : 0
  })

/** the URLs of the scripts the page fetched */
const scriptsFetched = (page: Page) => {
  const urls: string[] = []
  page.on("request", (request) => {
    if (request.resourceType() === "script" || request.url().endsWith(".js")) urls.push(request.url())
  })
  return urls
}

it("searches a tool, shows its TypeScript and policy, and runs it from the form", async () => {
  const { page, problems, close } = await signedIn("#/tools")
  const scripts = scriptsFetched(page)
  await page.getByLabel("Search tools").fill("weather city")
  const first = page.getByRole("list", { name: "Tools" }).getByRole("link").first()
  await first.filter({ hasText: "demo.weather" }).waitFor()
  await first.click()
  await page.getByRole("heading", { name: "demo.weather" }).waitFor()
  // CodeMirror draws the lines in view
  await page.locator(".code-view").scrollIntoViewIfNeeded()
  expect(await page.locator(".code-view .cm-content").textContent()).toContain("temperature")
  expect(await page.getByTestId("output-source").textContent()).toBe("declared")
  expect(await page.getByTestId("tool-policy").textContent()).toMatch(/^allow/)
  await page.getByLabel("city (required)").fill("Paris")
  await page.getByRole("button", { name: "Run" }).click()
  await page.getByTestId("run-status").filter({ hasText: "ok" }).waitFor()
  expect(await page.getByTestId("run-raw").textContent()).toContain('"city": "Paris"')
  expect(await page.getByTestId("calls").textContent()).toContain("demo.weather")
  await checkPage(page, "tool")
  // the type checker is the playground's alone
  expect(scripts.filter((url) => url.includes("check-worker"))).toEqual([])
  expect(problems).toEqual([])
  await close()
})

it("shows a tool's annotations as its source declared them", async () => {
  const { page, problems, close } = await signedIn("#/tools/ledger.write")
  await page.getByRole("heading", { name: "ledger.write" }).waitFor()
  const annotations = page.getByTestId("annotations")
  await annotations.waitFor()
  expect(await annotations.locator("dd").first().textContent()).toBe("Write an entry")
  const hint = (name: string) => annotations.locator(`dd[data-hint="${name}"]`).textContent()
  expect(await hint("destructiveHint")).toBe("yes: may destroy or overwrite")
  expect(await hint("readOnlyHint")).toBe("no")
  expect(await hint("idempotentHint")).toBe("not declared")
  expect(await hint("openWorldHint")).toBe("not declared")
  // the default policy reads the same hint
  expect(await page.getByTestId("tool-policy").textContent()).toMatch(/^require_approval/)
  await page.goto(`${server.url}/#/tools/ledger.lookup`)
  await page.getByRole("heading", { name: "ledger.lookup" }).waitFor()
  await annotations.locator('dd[data-hint="readOnlyHint"]').filter({ hasText: "yes: changes nothing" }).waitFor()
  expect(await annotations.locator("dd").first().textContent()).toBe("none declared")
  await checkPage(page)
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
    "  if (!r.ok) throw new Error(r.error.message)",
    "  lines.push(`${r.data.city}: ${r.data.conditions}`)",
    "}",
    'return lines.join("\\n")',
  ].join("\n")
  await typeScript(page, script)
  // checked clean: data is read once ok says so, and the array takes the strings pushed into it
  await page.getByTestId("problem-count").filter({ hasText: "TypeScript finds no problem" }).waitFor()
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

it("underlines a misspelt tool and a wrong argument type in the playground, with TypeScript's words", async () => {
  const { page, problems, close } = await signedIn("#/playground")
  const scripts = scriptsFetched(page)
  await typeScript(
    page,
    [
      'const r = await tools.demo.wether({ city: "Oslo" })',
      "const s = await tools.demo.weather({ city: 7 })",
      "return s.ok ? s.data.temperature : r",
    ].join("\n"),
  )
  const listed = page.getByTestId("problems")
  await listed.getByText("line 1: Property 'wether' does not exist", { exact: false }).waitFor()
  await listed.getByText("line 2: Type 'number' is not assignable to type 'string'.").waitFor()
  expect(await listed.locator("li").count()).toBe(2)
  // each is underlined where it is: the tool's name, and the argument
  const underlined = page.locator(".code-editor .cm-lintRange-error")
  expect(await underlined.allTextContents()).toEqual(["wether", "city"])
  await checkPage(page)
  expect(scripts.filter((url) => url.includes("check-worker")).length).toBe(1)

  // a script that reads data only once ok says so is clean; one that does not is told why
  await typeScript(page, 'const r = await tools.demo.weather({ city: "Oslo" })\nreturn r.data.temperature')
  await listed.getByText("Property 'data' does not exist on type", { exact: false }).waitFor()
  await typeScript(
    page,
    'const r = await tools.demo.weather({ city: "Oslo" })\nif (!r.ok) return r.error.message\nconsole.log(r.data.conditions)\nreturn r.data.temperature',
  )
  await page.getByTestId("problem-count").filter({ hasText: "TypeScript finds no problem" }).waitFor()
  expect(await page.locator(".code-editor .cm-lintRange-error").count()).toBe(0)
  expect(problems).toEqual([])
  await close()
})

it("shows the images a script returns, and those in a tool's result run from its page", async () => {
  const { page, problems, close } = await signedIn("#/playground")
  await typeScript(page, "const r = await tools.contract.image({})\nreturn r.ok ? r.data : r.error.message")
  await page.getByRole("button", { name: "Run", exact: true }).click()
  await page.getByTestId("run-status").filter({ hasText: "ok" }).waitFor()
  const image = page.getByRole("img", { name: "image 1 the script returned" })
  await image.waitFor()
  expect(await naturalWidth(image)).toBeGreaterThan(0)
  // the caption beside it is the text the model reads
  expect(await page.getByTestId("run-text").textContent()).toBe("a tiny image")
  await checkPage(page)

  await page.goto(`${server.url}/#/tools/contract.image`)
  await page.getByRole("heading", { name: "contract.image" }).waitFor()
  await page.getByRole("button", { name: "Run" }).click()
  await page.getByTestId("run-status").filter({ hasText: "ok" }).waitFor()
  await image.waitFor()
  expect(await naturalWidth(image)).toBeGreaterThan(0)
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
