/**
 * The Worker's cron trigger prunes D1 with the store's own retention (src/retention.ts): the deploy bundle in workerd,
 * its `scheduled` handler called as Cloudflare calls it, with and without SWITCHBOARD_RETAIN.
 */
import { afterEach, expect, it } from "vitest"
import { startWorker } from "../local/miniflare-worker.js"
import type { RunningWorker } from "../local/miniflare-worker.js"

const HOUR = 3_600_000
const NOW = 1_800_000_000_000

let worker: RunningWorker | undefined
afterEach(async () => {
  await worker?.close()
  worker = undefined
})

const seed = async ({ db }: RunningWorker) => {
  const execution = db.prepare(
    "insert into executions (id, code, status, started_at, duration_ms, result_text, tool_call_count, keep_until) " +
      "values (?, 'return 1', 'ok', ?, 1, '1', 1, ?)",
  )
  const call = db.prepare(
    "insert into tool_calls (id, execution_id, tool_path, encoding, started_at, duration_ms, ok) values (?, ?, 'a.b', 'direct', ?, 1, 1)",
  )
  const rows: [string, number, number | null][] = [
    ["old", NOW - 3 * HOUR, null],
    ["held", NOW - 3 * HOUR, NOW + HOUR],
    ["recent", NOW - HOUR / 2, null],
  ]
  await db.batch(rows.flatMap(([id, at, keep]) => [execution.bind(id, at, keep), call.bind(`call-${id}`, id, at)]))
}

const left = async ({ db }: RunningWorker) => ({
  executions: (await db.prepare("select id from executions order by id").all<{ id: string }>()).results.map(
    (r) => r.id,
  ),
  calls: (
    await db.prepare("select execution_id from tool_calls order by 1").all<{ execution_id: string }>()
  ).results.map((r) => r.execution_id),
})

const trigger = async ({ mf }: RunningWorker) =>
  (await mf.getWorker()).scheduled({ scheduledTime: new Date(NOW), cron: "*/15 * * * *" })

it("with SWITCHBOARD_RETAIN set, the cron trigger prunes what is older, with its tool calls, and keeps what is held", async () => {
  worker = await startWorker({ bindings: { SWITCHBOARD_RETAIN: "1h" } })
  await seed(worker)
  expect(await trigger(worker)).toMatchObject({ outcome: "ok" })
  expect(await left(worker)).toEqual({ executions: ["held", "recent"], calls: ["held", "recent"] })
}, 60_000)

it("without it the trigger keeps everything", async () => {
  worker = await startWorker()
  await seed(worker)
  expect(await trigger(worker)).toMatchObject({ outcome: "ok" })
  expect((await left(worker)).executions).toEqual(["held", "old", "recent"])
}, 60_000)
