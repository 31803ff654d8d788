/**
 * What an http MCP server may send us, bounded before the SDK reads it. The SDK reads an error response whole
 * (`await response.text()`) to put it in a message we then cut to 120 characters, and parses a JSON response
 * whole: a server answering with a gigabyte would have it held in memory first. Here an error response's body
 * is cut to its first `ERROR_BODY_BYTES`, a JSON body fails once it passes `maxBytes`, and an event stream fails
 * once one event passes `maxBytes` (the stream itself may live long, event after event). Web streams only, so
 * this runs on Workers too.
 */
import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js"
import { cancellablePosts } from "./cancelled-posts.js"

/** What an error response keeps of its body: more than the excerpt an error message carries. */
export const ERROR_BODY_BYTES = 4 * 1024

/** The largest JSON response, or one event of a stream, an http source may send (default). */
export const DEFAULT_MAX_UPSTREAM_MESSAGE_BYTES = 64 * 1024 * 1024

/** A JSON answer, or one event of a stream, past the bound: the server misbehaved (`upstream_error`), as a stdio flood does. */
export class UpstreamMessageTooLarge extends Error {
  readonly _tag = "UpstreamMessageTooLarge"
  constructor(readonly maxBytes: number) {
    super(`the MCP server sent a message larger than ${maxBytes} bytes; it was not read past that`)
  }
}

export const boundedFetch = (
  fetchLike: FetchLike = (url, init) => fetch(url, init),
  maxBytes = DEFAULT_MAX_UPSTREAM_MESSAGE_BYTES,
): FetchLike => {
  const posts = cancellablePosts()
  return async (url, init) => {
    const { own, unlink } = ownSignal(init?.signal)
    const forget = posts.sending(init?.body, own)
    const release = () => {
      unlink()
      forget()
    }
    let response: Response
    try {
      response = await fetchLike(url, { ...init, signal: own.signal })
    } catch (cause) {
      release()
      throw cause
    }
    if (!response.body) {
      release()
      return response
    }
    const type = response.headers.get("content-type") ?? ""
    const body = !response.ok
      ? response.body.pipeThrough(keepFirst(ERROR_BODY_BYTES, release))
      : response.body.pipeThrough(failPast(maxBytes, type.includes("text/event-stream"), release))
    return new Response(body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    })
  }
}

/**
 * A signal for one request, aborted with the connection's: the SDK hands every request the connection's own
 * signal, and Node's fetch keeps a listener on it per request until that request is garbage collected (thousands
 * on a busy pooled connection). The connection's signal holds one listener per request in flight instead. Its own
 * controller also lets a cancelled request's POST be ended alone (./cancelled-posts.ts).
 */
const ownSignal = (connection: AbortSignal | null | undefined) => {
  const own = new AbortController()
  if (!connection || connection.aborted) {
    if (connection) own.abort(connection.reason)
    return { own, unlink: () => {} }
  }
  const forward = () => own.abort(connection.reason)
  connection.addEventListener("abort", forward, { once: true })
  return { own, unlink: () => connection.removeEventListener("abort", forward) }
}

/** A stream running `transform` on each chunk, calling `done` once the body has ended or its reader cancelled it (the request is over). */
const ending = (
  transform: (chunk: Uint8Array, controller: TransformStreamDefaultController<Uint8Array>) => void,
  done: () => void,
) =>
  // `cancel` (a reader that cancels) is newer than the types Node 20's declarations give the transformer
  new TransformStream<Uint8Array, Uint8Array>({ transform, flush: done, cancel: done } as ConstructorParameters<
    typeof TransformStream<Uint8Array, Uint8Array>
  >[0])

/** Passes the first `limit` bytes, then ends the body and cancels the rest of the upstream's. */
const keepFirst = (limit: number, done: () => void) => {
  let kept = 0
  return ending((chunk, controller) => {
    const room = limit - kept
    if (room <= 0) return
    const part = chunk.byteLength <= room ? chunk : chunk.subarray(0, room)
    kept += part.byteLength
    controller.enqueue(part)
    if (kept >= limit) {
      done()
      controller.terminate()
    }
  }, done)
}

const LF = 0x0a
const CR = 0x0d

/**
 * Fails the body once more than `limit` bytes pass: in all, or (`perEvent`) since the last blank line (`\n\n` or
 * `\r\n\r\n`), which ends a server-sent event. Only line feeds are looked at, with the engine's own search.
 */
const failPast = (limit: number, perEvent: boolean, done: () => void) => {
  let count = 0
  // the last two bytes of the previous chunk, for a blank line split across chunks
  let last = -1
  let beforeLast = -1
  return ending((chunk, controller) => {
    if (!perEvent) count += chunk.byteLength
    else {
      let eventStart = -1
      const at = (k: number) => (k >= 0 ? (chunk[k] as number) : k === -1 ? last : beforeLast)
      for (let i = chunk.indexOf(LF); i !== -1; i = chunk.indexOf(LF, i + 1)) {
        const before = at(i - 1)
        if (before === LF || (before === CR && at(i - 2) === LF)) eventStart = i + 1
      }
      count = eventStart >= 0 ? chunk.byteLength - eventStart : count + chunk.byteLength
      if (chunk.byteLength >= 2)
        [beforeLast, last] = [chunk[chunk.byteLength - 2] as number, chunk[chunk.byteLength - 1] as number]
      else if (chunk.byteLength === 1) [beforeLast, last] = [last, chunk[0] as number]
    }
    if (count > limit) {
      done()
      controller.error(new UpstreamMessageTooLarge(limit))
    } else controller.enqueue(chunk)
  }, done)
}
