/**
 * An execution's stored output read a page at a time (CatalogStore `getResult`, `readResultPage`): what GET
 * /v1/executions/:id/output streams, and what a search of it reads (render/read-output.ts `GrepRunner`), so neither
 * holds the whole text on the thread that serves requests.
 */
import { NotFound } from "../errors.js"
import { afterThisTurn } from "../after-this-turn.js"
import type { OutputPages } from "../render/read-output.js"
import type { CatalogStore, StoredResult } from "./rows.js"

/**
 * How long pages may be read back to back before the event loop is given a turn. A synchronous driver
 * (better-sqlite3) answers without the loop turning, and so does a socket with room in its buffer: a download or a
 * search reading page after page held the loop for the whole text (hundreds of ms for 8 MB on a loaded machine).
 */
const TURN_MS = 2

/** The pages of a stored text `getResult` found (its `bytes` not null). */
export const storedOutputPages = (
  store: Pick<CatalogStore, "readResultPage">,
  id: string,
  result: StoredResult & { bytes: number },
): OutputPages => {
  let turned = performance.now()
  return {
    bytes: result.bytes,
    pages: result.pages,
    async read(page) {
      if (performance.now() - turned > TURN_MS) {
        await new Promise<void>(afterThisTurn)
        turned = performance.now()
      }
      const text = await store.readResultPage(id, page)
      if (text === null) throw new NotFound({ message: `execution "${id}" was deleted while its output was read` })
      return text
    },
  }
}

const encoder = new TextEncoder()

/** A text in hand as one page. */
export const textPages = (text: string): OutputPages => ({
  bytes: encoder.encode(text).length,
  pages: 1,
  read: async () => text,
})
