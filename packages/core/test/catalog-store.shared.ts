/** What the store contract suites share: the store under test, and rows (a tool, a source, an execution, a call). */
import type { SourceRow } from "../src/catalog/rows.js"
import type { CatalogStore, DiscoveredTool, ExecutionRecord, ToolCallRecord } from "../src/index.js"

export interface StoreUnderTest {
  store: CatalogStore
  /** another store on the same database, as a second server would have one */
  second(): CatalogStore
  /** runs one SQL statement on the database as it is (to make a row as an older build wrote it) */
  exec(statement: string): Promise<void>
  close(): Promise<void>
}

export const tool = (name: string, extra: Partial<DiscoveredTool> = {}): DiscoveredTool => ({
  name,
  description: `does ${name}`,
  inputSchema: { type: "object", properties: { q: { type: "string" } } },
  outputSchema: null,
  annotations: null,
  ...extra,
})

export const source = (namespace: string, extra: Partial<SourceRow> = {}): SourceRow => ({
  id: `id-${namespace}`,
  namespace,
  kind: "mcp",
  config: {
    transport: { type: "http", url: "http://127.0.0.1:1/mcp", headers: { "x-key": "s3cr\u00e9t \uD83D\uDE00" } },
  },
  status: "ready",
  lastSyncedAt: null,
  syncError: null,
  createdAt: 1_700_000_000_000,
  updatedAt: 1_700_000_000_000,
  ...extra,
})

export const run = (id: string): ExecutionRecord => ({
  id,
  code: "return 1",
  status: "ok",
  startedAt: 1_700_000_000_000,
  durationMs: 1,
  resultText: "1",
  errorCode: null,
  errorMessage: null,
  logs: [],
  toolCallCount: 0,
  keyId: null,
  keepUntil: null,
})

export const call = (executionId: string, i: number): ToolCallRecord => ({
  executionId,
  toolPath: "a.b",
  encoding: "direct",
  startedAt: 1_700_000_000_000 + i,
  durationMs: 1,
  ok: true,
  errorCode: null,
  dataBytes: i,
  outputSchemaError: null,
})
