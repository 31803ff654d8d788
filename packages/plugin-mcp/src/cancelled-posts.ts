/**
 * A request the client gave up on (its call was cancelled, or the SDK's timeout passed) ends its POST too. The SDK
 * then sends `notifications/cancelled`, but its send listens only to the connection's signal, so the POST that
 * carries the request stays open until the server answers, which a server that honours the cancellation never does:
 * a socket and a response stream held until the HTTP client's own timeouts (minutes), or longer behind keep-alives.
 * bounded-fetch.ts gives each request its own signal; this registry aborts a request's when its cancellation goes
 * out. The JSON-RPC id is read off the end of the body (the SDK writes `id` last, `{ ...request, jsonrpc, id }`); a
 * body it cannot read there is left as it was. Plain strings and maps, so this runs on Workers too.
 */

/** how the SDK's cancellation of a request begins, as it serializes it */
const CANCELLED = '{"jsonrpc":"2.0","method":"notifications/cancelled"'
/** how a request from the client begins; a response to the server's own request begins otherwise */
const REQUEST = '{"method":'
/** a request's id at the end of its body; looked for in the last characters only (a body can be megabytes) */
const ID_AT_END = /"id":(\d+)\}$/
const TAIL_CHARS = 32

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

const nothing = () => {}

/** The requests of one connection whose POST is still open, by JSON-RPC id. */
export const cancellablePosts = () => {
  const open = new Map<number, AbortController>()
  return {
    /**
     * A POST goes out with `body` on its own controller `post`: a cancellation aborts the POST of the request it
     * names; a request's is kept until the returned function runs (its answer ended).
     */
    sending(body: unknown, post: AbortController): () => void {
      if (typeof body !== "string") return nothing
      if (body.startsWith(CANCELLED)) {
        const id = cancelledIdOf(body)
        if (typeof id === "number") open.get(id)?.abort(new Error(`request ${id} was cancelled`))
        return nothing
      }
      const id = requestIdOf(body)
      if (id === undefined) return nothing
      open.set(id, post)
      return () => {
        if (open.get(id) === post) open.delete(id)
      }
    },
  }
}
