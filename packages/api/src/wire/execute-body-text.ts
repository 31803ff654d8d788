/**
 * The body of a successful POST /v1/execute, written around a result that is already JSON text (the executor's
 * `resultJson`, made off the main thread for a large value): the same fields as `c.json` writes, and `result`
 * spliced in as it is, never parsed or encoded again here.
 */
import type * as Executor from "@switchboard/core/executor"

export const executeBodyText = (
  response: Extract<Executor.ExecuteResponse, { ok: true }>,
  resultJson: string,
): string => {
  const { executionId, stored, warning, ok, text, truncated, media, logs } = response
  const head = { executionId, stored, warning, ok }
  const tail = { text, truncated, media, logs }
  // `{…}` and `{…}` joined around "result": neither object is empty (stored, ok, text and logs are always there)
  return `${JSON.stringify(head).slice(0, -1)},"result":${resultJson},${JSON.stringify(tail).slice(1)}`
}
