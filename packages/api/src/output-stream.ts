/**
 * The body of a download of stored output (GET /v1/executions/:id/output with no query): the text's pages, each
 * read from the store only once the client has taken the one before (a ReadableStream with no high-water mark:
 * `pull` runs when the server's writer asks for the next chunk, and it asks once the socket drained). A client that
 * reads nothing holds one page, not the whole text twice (the string, and its bytes).
 */
import type * as Render from "@switchboard/core/render"

const encoder = new TextEncoder()

export interface OutputStreamOptions {
  /** runs once, when the last page is sent, the client went away, or a read failed */
  done: () => void
  /** a read that failed (the execution deleted meanwhile, the database down): the answer is cut short */
  failed: (cause: unknown) => void
}

export const outputStream = (output: Render.OutputPages, { done, failed }: OutputStreamOptions) => {
  let page = 0
  // the client went away: a page still being read is dropped, not reported as a failed read
  let cancelled = false
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          const text = await output.read(page++)
          if (cancelled) return
          if (text.length > 0) controller.enqueue(encoder.encode(text))
          if (page >= output.pages) {
            done()
            controller.close()
          }
        } catch (cause) {
          done()
          if (cancelled) return
          failed(cause)
          controller.error(cause)
        }
      },
      cancel: () => {
        cancelled = true
        done()
      },
    },
    { highWaterMark: 0 },
  )
}
