/**
 * Activity's filters in Chromium against a real `switchboard serve`: executions by the source they called, the key
 * that ran them, their error code and status, alone and together, newest first, paged with Older and Newer; each
 * page is what `GET /v1/executions` answers for the same filters.
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
let agentKey: string
/** the ids of the executions each kind of run made, newest first */
const made = { demo: [] as string[], contractOk: "", failed: "", failedAfterCall: "", timedOut: "" }

const api = async (method: string, path: string, body?: unknown, key = adminKey) => {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  return (await response.json()) as Record<string, any>
}

const run = async (code: string, key = adminKey, extra: Record<string, unknown> = {}) =>
  (await api("POST", "/v1/execute", { code, ...extra }, key)).executionId as string

beforeAll(async () => {
  const folder = tempDir()
  ;[server, browser] = await Promise.all([
    spawnServe(["--db", join(folder.dir, "catalog.db"), "--require-key", "--allow-stdio", "--workers", "1"], {
      env: { SWITCHBOARD_ADMIN_KEY: adminKey },
    }),
    launchBrowser(),
  ])
  const demo = { type: "stdio", command: process.execPath, args: [join(builtDir, "demo-server.mjs")] }
  const contract = { type: "stdio", ...fixtureCommand("contract-stdio") }
  for (const [namespace, transport] of Object.entries({ demo, contract }))
    expect((await api("POST", "/v1/sources", { namespace, kind: "mcp", transport })).source.status).toBe("ready")
  agentKey = (await api("POST", "/v1/keys", { name: "agent", scopes: ["execute"] })).secret
  for (let i = 0; i < 27; i++) made.demo.unshift(await run(`return (await tools.demo.add({ a: ${i}, b: 1 })).ok`))
  made.contractOk = await run(`return (await tools.contract.echo({ message: "hi" })).data`, agentKey)
  made.failed = await run(`throw new Error("boom")`, agentKey)
  made.failedAfterCall = await run(`await tools.contract.echo({ message: "then" }); throw new Error("after")`, agentKey)
  made.timedOut = await run("while (true) {}", adminKey, { timeoutMs: 300 })
}, 120_000)

afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

/** the executions the page lists, newest first */
const listed = async (page: Page) => {
  await page.getByTestId("executions").waitFor()
  return page
    .getByTestId("executions")
    .locator("tbody tr")
    .evaluateAll((rows) => rows.map((row) => row.getAttribute("data-execution")))
}

/** waits until the page lists exactly these */
const lists = async (page: Page, ids: string[]) => {
  await expect.poll(() => listed(page), { timeout: 10_000 }).toEqual(ids)
}

it("filters executions by source, key, error code and status, and pages through them", async () => {
  const timedOut = await api("GET", `/v1/executions/${made.timedOut}`)
  expect(timedOut.execution.errorCode).toBe("timeout")
  const { page, problems, close } = await strictPage(browser)
  await page.goto(`${server.url}/#/activity`)
  await page.getByLabel("API key").fill(adminKey)
  await page.getByRole("button", { name: "Sign in" }).click()
  await lists(page, [made.timedOut, made.failedAfterCall, made.failed, made.contractOk, ...made.demo.slice(0, 21)])

  // a source: 27 executions called demo, a page of 25 and then the other 2
  await page.getByLabel("Source called").selectOption("demo")
  await lists(page, made.demo.slice(0, 25))
  await page.getByRole("button", { name: "Older" }).click()
  await lists(page, made.demo.slice(25))
  expect(await page.getByRole("button", { name: "Older" }).count()).toBe(0)
  await page.getByRole("button", { name: "Newer" }).click()
  await lists(page, made.demo.slice(0, 25))

  // a source and a key
  await page.getByLabel("Source called").selectOption("contract")
  await page.getByLabel("Key").selectOption({ label: "agent" })
  await lists(page, [made.failedAfterCall, made.contractOk])
  await checkPage(page)

  // an error code: with the source and key, then alone
  await page.getByLabel("Error code").fill("runtime_error")
  await page.getByRole("button", { name: "Filter" }).click()
  await lists(page, [made.failedAfterCall])
  await page.getByLabel("Source called").selectOption("")
  await lists(page, [made.failedAfterCall, made.failed])
  await page.getByLabel("Key").selectOption("")
  await page.getByLabel("Error code").fill("timeout")
  await page.getByRole("button", { name: "Filter" }).click()
  await lists(page, [made.timedOut])

  // a status and a key
  await page.getByLabel("Error code").fill("")
  await page.getByRole("button", { name: "Filter" }).click()
  await page.getByLabel("Status").selectOption("ok")
  await page.getByLabel("Key").selectOption({ label: "agent" })
  await lists(page, [made.contractOk])
  await page.getByLabel("Error code").fill("no_such_code")
  await page.getByRole("button", { name: "Filter" }).click()
  await page.getByText("No execution matches.").waitFor()

  // the page listed what the API lists for the same filters
  const keyId = (await api("GET", `/v1/executions/${made.contractOk}`)).execution.keyId
  const page2 = await api("GET", `/v1/executions?source=contract&keyId=${keyId}`)
  expect(page2.executions.map((e: { id: string }) => e.id)).toEqual([made.failedAfterCall, made.contractOk])
  expect(problems).toEqual([])
  await close()
})

it("offers an execute key no key filter, and lists its own executions by source and error code", async () => {
  const { page, problems, close } = await strictPage(browser)
  await page.goto(`${server.url}/#/activity`)
  await page.getByLabel("API key").fill(agentKey)
  await page.getByRole("button", { name: "Sign in" }).click()
  await lists(page, [made.failedAfterCall, made.failed, made.contractOk])
  expect(await page.getByLabel("Key").count()).toBe(0)
  await page.getByLabel("Source called").selectOption("contract")
  await lists(page, [made.failedAfterCall, made.contractOk])
  await page.getByLabel("Error code").fill("runtime_error")
  await page.getByRole("button", { name: "Filter" }).click()
  await lists(page, [made.failedAfterCall])
  expect(problems).toEqual([])
  await close()
})
