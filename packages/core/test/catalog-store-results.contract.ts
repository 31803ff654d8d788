/**
 * The store contract's reading of a result text without the rest of its record, run by every implementation within
 * catalogStoreContract: `getResult` says who may read it, its UTF-8 length and its pages without reading it, and
 * `readResultPage` reads it a page at a time; the pages joined are the text, byte for byte, wherever it is stored
 * (its row, or its parts).
 */
import { beforeEach, expect, it } from "vitest"
import { storedOutputPages } from "../src/catalog/result-pages.js"
import type { CatalogStore } from "../src/index.js"
import { run } from "./catalog-store.shared.js"
import type { StoreUnderTest } from "./catalog-store.shared.js"

const utf8Bytes = (text: string) => new TextEncoder().encode(text).length

export const catalogStoreResultsContract = (subject: () => StoreUnderTest) => {
  let store: CatalogStore
  beforeEach(() => {
    store = subject().store
  })

  const pagesOf = async (id: string) => {
    const result = await store.getResult(id)
    const pages: string[] = []
    for (let page = 0; page < (result?.pages ?? 0); page++) pages.push((await store.readResultPage(id, page))!)
    return { result, pages }
  }

  it("reads a result a page at a time, its length in UTF-8 bytes known before any page", async () => {
    // about 1.5 MB of UTF-8 (astral characters and U+FFFD among them): in parts wherever the dialect cuts
    const long = `${"ascii é € 😀 \uFFFD 𝄞 ".repeat(60_000)}end`
    const cases = { short: "😀 ok\nline two", long, empty: "" }
    await store.recordBatch(
      Object.entries(cases).map(([id, resultText]) => ({
        execution: { ...run(id), resultText, keyId: id === "long" ? "k1" : null },
        calls: [],
      })),
    )
    for (const [id, text] of Object.entries(cases)) {
      const { result, pages } = await pagesOf(id)
      expect(result).toEqual({ keyId: id === "long" ? "k1" : null, bytes: utf8Bytes(text), pages: pages.length })
      expect(pages.join("") === text).toBe(true)
      // the pages a download sends, each encoded alone, are the text's bytes
      const sent = Buffer.concat(pages.map((page) => Buffer.from(page, "utf8")))
      expect(sent.equals(Buffer.from(text, "utf8"))).toBe(true)
    }
    expect((await pagesOf("short")).pages).toHaveLength(1)
    expect((await pagesOf("empty")).pages).toEqual([""])
  })

  it("a failed execution has no text, and no execution has no result; a page past the end is null", async () => {
    await store.recordBatch([{ execution: { ...run("failed"), status: "error", resultText: null }, calls: [] }])
    expect(await store.getResult("failed")).toEqual({ keyId: null, bytes: null, pages: 0 })
    expect(await store.getResult("nothing")).toBeNull()
    expect(await store.readResultPage("nothing", 0)).toBeNull()
    await store.recordBatch([{ execution: run("one"), calls: [] }])
    expect(await store.readResultPage("one", 1)).toBeNull()
  })

  it("reads a text stored in its row before results were cut into parts as one page", async () => {
    // 80,000 bytes: past SQLite's and Postgres's 64 KiB parts, within D1's 100,000-byte statement
    const text = "é".repeat(40_000)
    await store.recordBatch([{ execution: run("old"), calls: [] }])
    await subject().exec(`update executions set result_text = '${text}' where id = 'old'`)
    const { result, pages } = await pagesOf("old")
    expect(result).toEqual({ keyId: null, bytes: 80_000, pages: 1 })
    expect(pages.join("") === text).toBe(true)
  })

  it("a page of an execution deleted since its result was found is not there, and its reader says so", async () => {
    const long = "x".repeat(3_000_000)
    await store.recordBatch([{ execution: { ...run("gone"), resultText: long }, calls: [] }])
    const result = (await store.getResult("gone"))!
    const output = storedOutputPages(store, "gone", { ...result, bytes: result.bytes! })
    expect((await output.read(0)).length).toBeGreaterThan(0)
    await subject().exec("delete from executions where id = 'gone'")
    await expect(output.read(result.pages - 1)).rejects.toMatchObject({ _tag: "NotFound" })
  })
}
