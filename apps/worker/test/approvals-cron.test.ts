/**
 * Approvals on the Worker past their deadline: no fiber outlives a request there, so the cron trigger takes on what
 * is due (src/approvals.ts). The deploy bundle in workerd: a run pauses at a call a rule holds for approval, its
 * deadline passes (set back in D1, as an hour would), and `scheduled`, called as Cloudflare calls it, resumes it as
 * declined, so the script goes on and the execution ends.
 */
import { afterEach, expect, it } from "vitest"
import { startContractHttpServer } from "@switchboard/fixtures"
import { TEST_ADMIN_KEY, startWorker } from "../local/miniflare-worker.js"
import type { RunningWorker } from "../local/miniflare-worker.js"

const closing: { close(): Promise<void> }[] = []
afterEach(async () => {
  for (const one of closing.splice(0)) await one.close()
})

const request = async (worker: RunningWorker, method: string, path: string, body?: unknown) => {
  const response = await fetch(worker.url + path, {
    method,
    headers: { authorization: `Bearer ${TEST_ADMIN_KEY}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  return { status: response.status, body: (await response.json()) as any }
}

it("the cron trigger resumes an approval past its deadline as declined, and the execution ends", async () => {
  const worker = await startWorker()
  closing.push(worker)
  const contract = await startContractHttpServer()
  closing.push(contract)
  const added = await request(worker, "POST", "/v1/sources", {
    namespace: "contract",
    kind: "mcp",
    transport: { type: "http", url: contract.url },
  })
  expect(added.status).toBe(201)
  expect(
    (await request(worker, "POST", "/v1/policies", { pattern: "contract.prose", action: "require_approval" })).status,
  ).toBe(201)
  const paused = await request(worker, "POST", "/v1/execute", {
    code: `const r = await tools.contract.prose({ name: "Ada" }); return r.ok ? "ran" : r.error.code`,
  })
  expect(paused.status).toBe(202)

  // before its deadline the trigger leaves it pending
  await (await worker.mf.getWorker()).scheduled({ scheduledTime: new Date(), cron: "* * * * *" })
  expect((await request(worker, "GET", `/v1/approvals/${paused.body.approval.id}`)).body.approval.status).toBe(
    "pending",
  )

  await worker.db
    .prepare("update approvals set expires_at = ? where id = ?")
    .bind(Date.now() - 1, paused.body.approval.id)
    .run()
  expect(await (await worker.mf.getWorker()).scheduled({ scheduledTime: new Date(), cron: "* * * * *" })).toMatchObject(
    {
      outcome: "ok",
    },
  )
  const execution = await request(worker, "GET", `/v1/executions/${paused.body.executionId}`)
  expect(execution.body.execution).toMatchObject({ status: "ok", resultText: "declined" })
  expect((await request(worker, "GET", `/v1/approvals/${paused.body.approval.id}`)).body.approval.status).toBe(
    "expired",
  )
}, 60_000)
