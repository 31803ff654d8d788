import { expect, it } from "vitest"
import { pausedText } from "./paused-text.js"

const paused = {
  executionId: "exe-1",
  status: "paused" as const,
  approval: { id: "apr-1", tool: "fs.write_file", args: { path: "a b.txt" }, reason: "why", expiresAt: 0 },
}

it("names the approval and how to decide it on the same catalog; --allow-stdio goes to the decision, which resumes the run here", () => {
  const local = pausedText(paused, { db: "/tmp/my catalog.db", "allow-stdio": true })
  expect(local).toContain('  args      {"path":"a b.txt"}\n')
  expect(local).toContain("approve:  switchboard approvals approve apr-1 --db '/tmp/my catalog.db' --allow-stdio\n")
  expect(local).toContain(
    "decline:  switchboard approvals decline apr-1 --note 'why' --db '/tmp/my catalog.db' --allow-stdio\n",
  )
  expect(local).toContain("  switchboard executions show exe-1 --db '/tmp/my catalog.db'\n")
  const remote = pausedText(paused, { url: "http://127.0.0.1:4747", "allow-stdio": false })
  expect(remote).toContain("approve:  switchboard approvals approve apr-1 --url http://127.0.0.1:4747\n")
  expect(pausedText(paused, {})).toContain("approve:  switchboard approvals approve apr-1\n")
})

it("shows no password of the catalog's URL in the commands it suggests", () => {
  const text = pausedText(paused, { db: "postgres://u:s3cret@h/d?password=s3cret" })
  expect(text).not.toContain("s3cret")
  expect(text).toContain("switchboard approvals approve apr-1 --db 'postgres://u:<redacted>@h/d?password=<redacted>'\n")
  expect(pausedText(paused, { url: "https://u:s3cret@switchboard.example" })).not.toContain("s3cret")
})
