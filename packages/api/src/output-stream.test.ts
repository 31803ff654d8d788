import { NotFound } from "@switchboard/core"
import type * as Render from "@switchboard/core/render"
import { expect, it } from "vitest"
import { outputStream } from "./output-stream.js"

const pages = (texts: string[], failAt?: number) => {
  const reads: number[] = []
  const output: Render.OutputPages = {
    bytes: new TextEncoder().encode(texts.join("")).length,
    pages: texts.length,
    async read(page) {
      reads.push(page)
      if (page === failAt) throw new NotFound({ message: "deleted meanwhile" })
      return texts[page]!
    },
  }
  return { output, reads }
}

const turns = () => new Promise((resolve) => setTimeout(resolve, 20))

it("reads a page only when the one before was taken: a stream nobody reads has read nothing", async () => {
  const { output, reads } = pages(["a", "é", "😀"])
  let done = 0
  const stream = outputStream(output, { done: () => done++, failed: () => {} })
  await turns()
  expect(reads).toEqual([])
  const reader = stream.getReader()
  const decoder = new TextDecoder()
  expect(decoder.decode((await reader.read()).value)).toBe("a")
  await turns()
  expect(reads).toEqual([0])
  expect(decoder.decode((await reader.read()).value)).toBe("é")
  expect(decoder.decode((await reader.read()).value)).toBe("😀")
  expect(await reader.read()).toEqual({ done: true, value: undefined })
  expect(reads).toEqual([0, 1, 2])
  expect(done).toBe(1)
})

it("a client that goes away, or a page that cannot be read, ends it once", async () => {
  const left = pages(["a", "b", "c"])
  let done = 0
  const reader = outputStream(left.output, { done: () => done++, failed: () => {} }).getReader()
  await reader.read()
  await reader.cancel()
  expect(done).toBe(1)
  expect(left.reads).toEqual([0])

  const failing = pages(["a", "b"], 1)
  const failures: unknown[] = []
  let ended = 0
  const broken = outputStream(failing.output, {
    done: () => ended++,
    failed: (cause) => failures.push(cause),
  }).getReader()
  await broken.read()
  await expect(broken.read()).rejects.toMatchObject({ _tag: "NotFound" })
  expect(ended).toBe(1)
  expect(failures).toMatchObject([{ _tag: "NotFound" }])
})
