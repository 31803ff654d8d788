import { expect, it } from "vitest"
import { executeBodyText } from "./execute-body-text.js"

it("writes the same JSON as encoding the whole answer, the result spliced in as it is", () => {
  const result = { a: [1, "two", { three: null }], 'quo"te': "\u2028" }
  const answers = [
    {
      executionId: "e1",
      stored: true,
      ok: true as const,
      result,
      text: "t",
      logs: [{ level: "log" as const, message: "m" }],
    },
    {
      stored: false,
      warning: "not stored",
      ok: true as const,
      result,
      text: "head\n[output truncated]",
      truncated: { totalLines: 9, totalChars: 99 },
      media: [{ type: "image", data: "AAAA", mimeType: "image/png" }],
      logs: [],
    },
  ]
  for (const answer of answers)
    expect(JSON.parse(executeBodyText(answer, JSON.stringify(result)))).toEqual(JSON.parse(JSON.stringify(answer)))
})
