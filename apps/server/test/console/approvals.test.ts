/**
 * Approvals in the console: a script pauses on a call that needs a person, the link in the paused answer opens the
 * approval's page, approving there resumes the run, which ends ok; and a decision made elsewhere shows on the page.
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

const api = async (method: string, path: string, body?: unknown) => {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${adminKey}`,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  return { status: response.status, body: (await response.json().catch(() => null)) as Record<string, any> }
}

beforeAll(async () => {
  const folder = tempDir()
  server = await spawnServe(
    ["--db", join(folder.dir, "catalog.db"), "--require-key", "--allow-stdio", "--workers", "1"],
    {
      env: { SWITCHBOARD_ADMIN_KEY: adminKey },
    },
  )
  const transport = { type: "stdio", command: process.execPath, args: [join(builtDir, "demo-server.mjs")] }
  expect((await api("POST", "/v1/sources", { namespace: "demo", kind: "mcp", transport })).status).toBe(201)
  const rule = { pattern: "demo.greet", action: "require_approval", reason: "greetings go out to people" }
  expect((await api("POST", "/v1/policies", rule)).status).toBe(201)
  browser = await launchBrowser()
})

afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

const signIn = async (page: Page, url: string) => {
  await page.goto(url)
  await page.getByLabel("API key").fill(adminKey)
  await page.getByRole("button", { name: "Sign in" }).click()
}

// a name with a bidi override and a terminal escape: the page shows them as \uXXXX, never acts on them
const trickyName = "Ada\u202e\u001b[2Jevil"

it("pauses a script, opens the approval from the paused answer's link, approves it, and the execution ends ok", async () => {
  const paused = await api("POST", "/v1/execute", {
    code: `const r = await tools.demo.greet({ name: ${JSON.stringify(trickyName)} }); return r.data`,
  })
  expect(paused.status).toBe(202)
  const url = paused.body.approval.url as string
  expect(url).toBe(`${server.url}/#/approvals/${paused.body.approval.id}`)
  expect(paused.body.message).toContain(url)

  const { page, problems, close } = await strictPage(browser)
  await signIn(page, url)
  await page.getByRole("heading", { name: "Approval of demo.greet" }).waitFor()
  const args = await page.getByTestId("approval-args").textContent()
  expect(args).toContain("Ada\\u202e\\u001b[2Jevil")
  expect(args).not.toContain("\u202e")
  expect(await page.getByText("greetings go out to people").count()).toBe(1)
  await checkPage(page, "approval")

  await page.getByLabel(/Note/).fill("fine by me")
  await page.getByRole("button", { name: "Approve" }).click()
  await page.getByRole("status").filter({ hasText: "the execution resumed and is ok" }).waitFor()
  expect(await page.getByTestId("approval-status").textContent()).toBe("approved")
  const execution = await api("GET", `/v1/executions/${paused.body.executionId}`)
  expect(execution.body.execution.status).toBe("ok")
  expect(problems).toEqual([])
  await close()
})

it("shows a decision made elsewhere without a reload", async () => {
  const paused = await api("POST", "/v1/execute", { code: `return (await tools.demo.greet({ name: "Grace" })).ok` })
  expect(paused.status).toBe(202)
  const { page, problems, close } = await strictPage(browser)
  await signIn(page, `${server.url}/#/approvals`)
  await page.getByRole("link", { name: "demo.greet" }).click()
  await page.getByTestId("approval-status").filter({ hasText: "pending" }).waitFor()
  expect(
    (await api("POST", `/v1/approvals/${paused.body.approval.id}`, { decision: "decline", note: "not now" })).status,
  ).toBe(200)
  await page.getByTestId("approval-status").filter({ hasText: "declined" }).waitFor()
  expect(await page.getByRole("button", { name: "Approve" }).count()).toBe(0)
  expect(problems).toEqual([])
  await close()
})
