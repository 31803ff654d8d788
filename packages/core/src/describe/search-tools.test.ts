import { expect, it } from "vitest"
import type { ToolRow } from "../catalog/rows.js"
import { rankTools, words } from "./search-tools.js"

it.each([
  ["getUserByID_v2", ["get", "user", "by", "id", "v2"]],
  ["IDNumber", ["id", "number"]],
  ["search-issues.list", ["search", "issues", "list"]],
  ["HTTPServer2Go", ["http", "server2", "go"]],
  ["", []],
])("words(%j)", (text, expected) => {
  expect(words(text)).toEqual(expected)
})

// the old regex backtracked quadratically (40,000 capitals: 2.3 s; a million: hours); the test's timeout is the guard
it("tokenizing a long run of capitals is linear", { timeout: 20_000 }, () => {
  expect(words("A".repeat(1_000_000))).toEqual(["a".repeat(2_000)]) // searched in its first 2,000 characters
})

const tool = (namespace: string, name: string, description: string, args: string[] = []): ToolRow => ({
  id: name,
  sourceId: namespace,
  namespace,
  name,
  path: `${namespace}.${name}`,
  description,
  inputSchema: { type: "object", properties: Object.fromEntries(args.map((a) => [a, { type: "string" }])) },
  outputSchema: null,
  annotations: null,
  resultEncoding: null,
  encoding: "direct",
  syncedAt: 0,
})

it("ranks name matches above description matches, and splits identifiers", () => {
  const tools = [
    tool("gh", "list_issues", "List issues in a repository", ["repo"]),
    tool("gh", "getIssue", "Get one issue by number", ["issueNumber"]),
    tool("docs", "search", "Search documentation pages mentioning an issue"),
  ]
  expect(rankTools("get issue", tools).map((t) => t.name)).toEqual(["getIssue", "list_issues", "search"])
  expect(rankTools("issue number", tools)[0]!.name).toBe("getIssue")
  expect(rankTools("zzz", tools)).toEqual([])
})
