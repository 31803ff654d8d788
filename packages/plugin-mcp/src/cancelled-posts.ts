/**
 * A request the client gave up on (its call was cancelled, or the SDK's timeout passed) ends its POST too. The SDK
 * then sends `notifications/cancelled`, but its send listens only to the connection's signal, so the POST that
 * carries the request stays open until the server answers, which a server that honours the cancellation never does:
 * a socket and a response stream held until the HTTP client's own timeouts (minutes), or longer behind keep-alives.
 * Each POST of a request is aborted when its cancellation goes out. The JSON-RPC id is read off the end of the
 * body (the SDK writes `id` last, `{ ...request, jsonrpc, id }`); a body it cannot read there is left as it was.
 * Web APIs only, so this runs on Workers too.
 */
import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js"
import { ending } from "./bounded-fetch.js"

/** how the SDK's cancellation of a request begins, as it serializes it */
const CANCELLED = '{"jsonrpc":"2.0","method":"notifications/cancelled"'
/** a request's id at the end of its body; looked for in the last characters only (a body can be megabytes) */
const ID_AT_END = /"id":(\d+)\}$/
const TAIL_CHARS = 32

/** how a request from the client begins (`{ ...request, jsonrpc, id }`); a response to the server's own begins otherwise */
const REQUEST = '{"method":'

const requestIdOf = (body: string): number | undefined => {
  if (!body.startsWith(REQUEST)) return undefined
  const found = ID_AT_END.exec(body.slice(-TAIL_CHARS))
  return found ? Number(found[1]) : undefined
}

const cancelledIdOf = (body: string): unknown => {
  try {
    return (JSON.parse(body) as { params?: { requestId?: unknown } }).params?.requestId
  } catch {
    return undefined
  }
}

export const abortCancelledPosts = (fetchLike: FetchLike): FetchLike => {
  /** the POSTs of requests still awaiting their answer, by JSON-RPC id */
  const open = new Map<number, AbortController>()
  return async (url, init) => {
    const body = typeof init?.body === "string" ? init.body : undefined
    if (body === undefined) return fetchLike(url, init)
    if (body.startsWith(CANCELLED)) {
      const id = cancelledIdOf(body)
      if (typeof id === "number") open.get(id)?.abort(new Error(`request ${id} was cancelled`))
      return fetchLike(url, init)
    }
    const id = requestIdOf(body)
    if (id === undefined) return fetchLike(url, init)
    const post = new AbortController()
    const connection = init?.signal
    const forward = () => post.abort(connection?.reason)
    if (connection?.aborted) forward()
    else connection?.addEventListener("abort", forward, { once: true })
    open.set(id, post)
    const settled = () => {
      connection?.removeEventListener("abort", forward)
      if (open.get(id) === post) open.delete(id)
    }
    try {
      const response = await fetchLike(url, { ...init, signal: post.signal })
      // the answer has come (a JSON body), or is coming on this response's stream: until that ends, a cancellation
      // still ends it
      if (!response.body) {
        settled()
        return response
      }
      const passed = response.body.pipeThrough(ending((chunk, controller) => controller.enqueue(chunk), settled))
      return new Response(passed, {
        status: response.status,
        statusText: response.statusText,
        headers: response.headers,
      })
    } catch (cause) {
      settled()
      throw cause
    }
  }
}
