import { describe, expect, it } from "vitest"
import { approvalPageUrl } from "../src/console-links.js"
import { pausedResult } from "../src/mcp/run-result.js"
import { stubApp, stubServices } from "./stub-app.js"

const approval = { id: "ap_1", tool: "fs.write_file", args: { path: "/x" }, reason: "destructive", expiresAt: 0 }
const paused = {
  executionId: "e1",
  stored: true,
  status: "paused",
  message: "paused before fs.write_file",
  approval,
  logs: [],
}

describe("the approval's page in paused answers", () => {
  it("is one URL, built from the server's origin", () => {
    expect(approvalPageUrl("http://127.0.0.1:4747/", "ap 1")).toBe("http://127.0.0.1:4747/#/approvals/ap%201")
  })

  it("is in the MCP paused text when the server serves the console, and absent otherwise", () => {
    const run = { executionId: "e1", approval, logs: [] }
    const page = (id: string) => approvalPageUrl("http://h:1", id)
    const text = (r: ReturnType<typeof pausedResult>) => (r.content[0] as { text: string }).text
    expect(text(pausedResult(run, undefined, page))).toContain("in the browser: http://h:1/#/approvals/ap_1")
    expect(text(pausedResult(run))).not.toContain("#/approvals/")
  })

  it("is in the execute API's 202 (url and message) on a server with the console", async () => {
    const services = stubServices()
    const executor = { ...services.executor, run: async () => paused }
    const withConsole = stubApp({ console: { "/": { body: "", contentType: "text/html" } } }, { executor } as never)
    const answer = await withConsole.request("http://127.0.0.1:4747/v1/execute", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ code: "return 1" }),
    })
    expect(answer.status).toBe(202)
    const body = (await answer.json()) as { message: string; approval: { url: string } }
    expect(body.approval.url).toBe("http://127.0.0.1:4747/#/approvals/ap_1")
    expect(body.message).toContain(body.approval.url)
    const bare = stubApp({}, { executor } as never)
    const plain = await bare.request("http://127.0.0.1:4747/v1/execute", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ code: "return 1" }),
    })
    expect(((await plain.json()) as { approval: { url?: string } }).approval.url).toBeUndefined()
  })
})
