/**
 * The web console on the Worker: the deploy bundle in real workerd (Miniflare) with a local D1, driven in
 * Chromium as the Node host's console tests drive `switchboard serve` (apps/server/test/console/): sign in with a
 * key, add an http source from the page, an execute key sees no admin pages, and a paused script's approval link
 * opens the page where approving it ends the execution ok. A Worker runs no stdio source, so the source is http.
 */
import { startContractHttpServer } from "@switchboard/fixtures"
import type { ContractHttpServer } from "@switchboard/fixtures"
import { checkPage, launchBrowser, strictPage } from "@switchboard/fixtures/browser"
import type { Browser, Page } from "@switchboard/fixtures/browser"
import { afterAll, beforeAll, expect, it } from "vitest"
import { TEST_ADMIN_KEY, startWorker } from "../local/miniflare-worker.js"

let worker: Awaited<ReturnType<typeof startWorker>>
let upstream: ContractHttpServer
let browser: Browser

const api = async (method: string, path: string, body?: unknown, key = TEST_ADMIN_KEY) => {
  const response = await fetch(`${worker.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  return { status: response.status, body: (await response.json().catch(() => null)) as Record<string, any> }
}

beforeAll(async () => {
  upstream = await startContractHttpServer()
  worker = await startWorker()
  browser = await launchBrowser()
}, 60_000)

afterAll(async () => {
  await browser?.close()
  await worker?.close()
  await upstream?.close()
})

const signIn = async (page: Page, url: string, key = TEST_ADMIN_KEY) => {
  await page.goto(url)
  await page.getByLabel("API key").fill(key)
  await page.getByRole("button", { name: "Sign in" }).click()
}

it("serves the console with its CSP and caching, and adds an http source from the page", async () => {
  const index = await fetch(`${worker.url}/`)
  expect(index.headers.get("cache-control")).toBe("no-cache")
  expect(index.headers.get("content-security-policy")).toContain("script-src 'self'")
  const { page, problems, close } = await strictPage(browser)
  await signIn(page, worker.url)
  await page.getByTestId("scope").filter({ hasText: "admin" }).waitFor()
  await page.getByLabel("Namespace").fill("contract")
  await page.getByRole("radio", { name: "http" }).check()
  await page.getByLabel("URL").fill(upstream.url)
  await page.getByRole("button", { name: "Add and sync" }).click()
  const row = page.locator('tr[data-source="contract"]')
  await row.filter({ hasText: "ready" }).waitFor()
  await checkPage(page)
  expect(problems).toEqual([])
  await close()
})

it("shows an execute key no admin page", async () => {
  const created = await api("POST", "/v1/keys", { name: "agent", scopes: ["execute"] })
  const { page, problems, close } = await strictPage(browser)
  await signIn(page, worker.url, created.body.secret)
  await page.getByTestId("scope").filter({ hasText: "execute" }).waitFor()
  const links = await page.getByRole("navigation", { name: "Pages" }).getByRole("link").allTextContents()
  expect(links).toEqual(["Sources", "Tools", "Playground", "Activity"])
  expect(problems).toEqual([])
  await close()
})

it("pauses a script, opens the approval from its link, approves it, and the execution ends ok", async () => {
  const rule = { pattern: "contract.prose", action: "require_approval", reason: "a person reads prose first" }
  expect((await api("POST", "/v1/policies", rule)).status).toBe(201)
  const paused = await api("POST", "/v1/execute", { code: 'return (await tools.contract.prose({ name: "Ada" })).ok' })
  expect(paused.status, JSON.stringify(paused.body)).toBe(202)
  const url = paused.body.approval.url as string
  expect(url).toBe(`${worker.url}/#/approvals/${paused.body.approval.id}`)
  const { page, problems, close } = await strictPage(browser)
  await signIn(page, url)
  await page.getByRole("heading", { name: "Approval of contract.prose" }).waitFor()
  await checkPage(page)
  await page.getByRole("button", { name: "Approve" }).click()
  await page.getByTestId("approval-status").filter({ hasText: "approved" }).waitFor()
  await expect
    .poll(async () => (await api("GET", `/v1/executions/${paused.body.executionId}`)).body.execution.status, {
      timeout: 20_000,
    })
    .toBe("ok")
  expect(problems).toEqual([])
  await close()
})
