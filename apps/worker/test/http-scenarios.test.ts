/**
 * The HTTP scenario suite (@switchboard/fixtures/http-scenarios) on the Worker: the deploy bundle (dist/, as
 * `wrangler deploy` uploads it) in real workerd through Miniflare, with a local D1 migrated by drizzle/sqlite.
 * Keys for the cases are made as an operator makes them: POST /v1/keys with the admin key. The cases a Worker
 * cannot run are skipped by name; README.md lists them.
 */
import { readFileSync } from "node:fs"
import { expect, it } from "vitest"
import { httpScenarioSuite, skippedCases } from "@switchboard/fixtures/http-scenarios"
import { TEST_ADMIN_KEY, startWorker } from "../local/miniflare-worker.js"

httpScenarioSuite(
  "the Worker in workerd",
  {
    stdio: false,
    stdioRefusal: { says: /stdio sources cannot run on Cloudflare Workers/, neverSays: /--allow-stdio/ },
    contentLength: false,
  },
  async () => {
    const worker = await startWorker()
    return {
      url: worker.url,
      adminKey: TEST_ADMIN_KEY,
      async createKey(name, scopes) {
        const created = await fetch(`${worker.url}/v1/keys`, {
          method: "POST",
          headers: { authorization: `Bearer ${TEST_ADMIN_KEY}`, "content-type": "application/json" },
          body: JSON.stringify({ name, scopes }),
        })
        const body = (await created.json()) as { secret?: string }
        if (created.status !== 201 || !body.secret)
          throw new Error(`POST /v1/keys answered ${created.status}: ${JSON.stringify(body)}`)
        return body.secret
      },
      close: () => worker.close(),
    }
  },
)

it("README.md's table lists every case the suite skipped here", () => {
  const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8")
  expect(skippedCases().length).toBeGreaterThan(0)
  for (const name of skippedCases()) expect(readme).toContain(`| ${name} |`)
})
