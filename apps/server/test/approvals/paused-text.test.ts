import { expect, it } from "vitest"
import { pausedText } from "../../src/commands/paused-text.js"

const approval = { id: "ap_1", tool: "fs.write_file", args: { path: "/x" }, reason: "destructive", expiresAt: 0 }

it("names the approval's page when the server's answer links it, and no page for a local catalog", () => {
  const url = "http://127.0.0.1:4747/#/approvals/ap_1"
  const remote = pausedText(
    { executionId: "e1", status: "paused", approval: { ...approval, url } },
    { url: "http://127.0.0.1:4747" },
  )
  expect(remote).toContain(`  page      ${url}\n`)
  expect(pausedText({ executionId: "e1", status: "paused", approval }, { db: "x.db" })).not.toContain("page ")
})
