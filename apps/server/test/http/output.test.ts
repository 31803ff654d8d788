/** Model-facing text over HTTP: clean strings, the inline cap, stored output paged by line, byte-for-byte replay. */
import Database from "better-sqlite3"
import { afterAll, beforeAll, expect, it } from "vitest"
import { startTestServer } from "../support/helpers.js"
import type { TestServer } from "../support/helpers.js"

let server: TestServer
beforeAll(async () => {
  server = await startTestServer()
})
afterAll(() => server?.stop())

it("a string result is its own text: no quotes, no escapes, lone surrogates replaced", async () => {
  const response = await server.execute(`return "line 1\\n\\t\\"quoted\\"\\n\\uD800 end"`)
  expect(response.text).toBe('line 1\n\t"quoted"\n\uFFFD end')
  expect(await fetch(`${server.url}/v1/executions/${response.executionId}/output`).then((r) => r.text())).toBe(
    'line 1\n\t"quoted"\n\uFFFD end',
  )
})

it.each([
  ["undefined", "return undefined"],
  ["null", "return null"],
  ["an empty string", 'return ""'],
  ["no return value", "const x = 1;"],
])("%s gives an empty text", async (_name, code) => {
  expect((await server.execute(code)).text).toBe("")
})

it("a 100,000-character listing is stored whole, returned as its head, and paged and grepped by line", async () => {
  const response = await server.execute(
    `return Array.from({ length: 2000 }, (_, i) => "item " + String(i).padStart(4, "0") + " " + "x".repeat(38)).join("\\n")`,
  )
  expect(response.ok).toBe(true)
  expect(response.truncated).toEqual({ totalLines: 2000, totalChars: 2000 * 49 - 1 })
  expect(response.text.length).toBeLessThanOrEqual(30_000 + 400)
  expect(response.text.split("\n").at(-1)).toMatch(
    /^\[output truncated: showing \d+ of 2000 lines \(97999 characters in all\)/,
  )

  const page = await server.request("GET", `/v1/executions/${response.executionId}/output?offset=1500&limit=3`)
  expect(page.body).toMatchObject({ offset: 1500, totalLines: 2000, nextOffset: 1503 })
  expect(page.body.lines).toEqual([1500, 1501, 1502].map((i) => `item ${i} ${"x".repeat(38)}`))

  const grep = await server.request(
    "GET",
    `/v1/executions/${response.executionId}/output?grep=${encodeURIComponent("^item 19[0-9]9 ")}`,
  )
  expect(grep.body.matches.map((m: { line: number }) => m.line)).toEqual([
    1909, 1919, 1929, 1939, 1949, 1959, 1969, 1979, 1989, 1999,
  ])

  const bad = await server.request("GET", `/v1/executions/${response.executionId}/output?grep=(`)
  expect(bad.status).toBe(400)
  for (const query of ["offset=1e20", "limit=0", "limit=2001", "charOffset=-1", "offset=99999999999999999999"]) {
    const answer = await server.request("GET", `/v1/executions/${response.executionId}/output?${query}`)
    expect(answer.status, query).toBe(400)
    expect(answer.body.error.message).toMatch(/^(offset|limit|charOffset) must be a whole number from/)
  }
})

it("a stored record replays byte for byte, even one stored under an older rendering", async () => {
  const response = await server.execute(`return 1`)
  const old = '"an old renderer quoted this"\r\n\u00e9'
  const sqlite = new Database(server.dbPath)
  sqlite.prepare("update executions set result_text = ? where id = ?").run(old, response.executionId)
  sqlite.close()
  const replayed = await fetch(`${server.url}/v1/executions/${response.executionId}/output`)
  expect(replayed.headers.get("content-type")).toMatch(/text\/plain/)
  expect(Buffer.from(await replayed.arrayBuffer()).equals(Buffer.from(old, "utf8"))).toBe(true)
})

// 40,000 zeros stay under maxResultNodes; indented a level each, they would still make 52 MB of text
it("a 90-byte script nesting 40,000 zeros 1,300 deep stores text within 3x of its compact JSON", async () => {
  const response = await server.execute("let v=new Array(4e4).fill(0); for(let i=0;i<1300;i++) v=[v]; return v")
  expect(response.ok).toBe(true)
  const compactLength = 4e4 * 2 - 1 + 2 + 2 * 1300
  const stored = await fetch(`${server.url}/v1/executions/${response.executionId}/output`).then((r) => r.text())
  expect(stored.length).toBeLessThanOrEqual(3 * compactLength)
  expect(JSON.stringify(JSON.parse(stored)).length).toBe(compactLength)
  expect(response.truncated.totalChars).toBe(stored.length)
}, 60_000)

it("a pattern too costly for RE2 answers 400 pattern_too_costly, and /healthz answers within 250 ms all along", async () => {
  const response = await server.execute(`return Array.from({ length: 100 }, () => "a".repeat(1000) + "b").join("\\n")`)
  expect(response.truncated.totalLines).toBe(100)
  const slowest = { ms: 0 }
  let probing = true
  const probes = (async () => {
    while (probing) {
      const started = performance.now()
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200)
      slowest.ms = Math.max(slowest.ms, performance.now() - started)
      await new Promise((resolve) => setTimeout(resolve, 25))
    }
  })()
  const costly = encodeURIComponent("(?:a?){1000}a{1000}$")
  const answer = await server.request("GET", `/v1/executions/${response.executionId}/output?grep=${costly}`)
  probing = false
  await probes
  expect(answer.status).toBe(400)
  expect(answer.body.error.code).toBe("pattern_too_costly")
  expect(slowest.ms).toBeLessThan(250)
  // an ordinary pattern still answers afterwards
  expect(
    (await server.request("GET", `/v1/executions/${response.executionId}/output?grep=b$`)).body.matches,
  ).toHaveLength(100)
}, 30_000)

it("a 200 KB string inside a JSON result is readable to its last character by following the offsets", async () => {
  const content = Array.from({ length: 220_000 }, (_, i) => String.fromCharCode(65 + (i % 26))).join("")
  const response = await server.execute(`return { ok: true, data: { content: ${JSON.stringify(content)} } }`)
  expect(response.truncated).toBeDefined()
  const head = response.text.split("\n").slice(0, -1)
  const pointer = JSON.parse(/read_output (\{.*?\}) or/.exec(response.text)![1]!) as {
    offset: number
    charOffset?: number
  }
  expect(pointer.offset).toBe(head.length)
  // what a model reads, line by line: the head, then each page's pieces at the offsets the pages name
  const lines = [...head]
  let at: { offset: number | null; charOffset: number } = {
    offset: pointer.offset,
    charOffset: pointer.charOffset ?? 0,
  }
  for (let pages = 0; at.offset !== null && pages < 500; pages++) {
    const page = (
      await server.request(
        "GET",
        `/v1/executions/${response.executionId}/output?offset=${at.offset}&charOffset=${at.charOffset}&limit=50`,
      )
    ).body
    page.lines.forEach((piece: string, k: number) => {
      const text = piece.replace(/…\[line \d+ continues: \d+ more characters from charOffset \d+\]$/, "")
      const line = page.offset + k
      lines[line] = k === 0 && page.charOffset > 0 ? lines[line] + text : text
    })
    at = { offset: page.nextOffset, charOffset: page.nextCharOffset ?? 0 }
  }
  const stored = await fetch(`${server.url}/v1/executions/${response.executionId}/output`).then((r) => r.text())
  expect(lines.join("\n")).toBe(stored)
  expect(stored).toContain(content)
})
