import { afterAll, beforeAll, expect, test } from "vitest"
import { TEST_ADMIN_KEY, startWorker } from "./worker-harness.js"
import type { RunningWorker } from "./worker-harness.js"

let worker: RunningWorker
beforeAll(async () => {
  worker = await startWorker()
}, 60_000)
afterAll(() => worker?.close())

test("execute", async () => {
  const response = await fetch(`${worker.url}/v1/execute`, {
    method: "POST",
    headers: { authorization: `Bearer ${TEST_ADMIN_KEY}`, "content-type": "application/json" },
    body: JSON.stringify({ code: "return 'hi ' + (1 + 1)" }),
  })
  const body = await response.json()
  console.log(response.status, body)
  expect(response.status).toBe(200)
})
