/**
 * workerd sends a streamed body chunked and drops the Content-Length the app set beside it; a download of stored
 * output (GET /v1/executions/:id/output) streams its text a page at a time and names its length, as the Node host
 * sends it. Piped through a FixedLengthStream of that length, the body goes out with its Content-Length, and a
 * stream that ends short or long is an error rather than a wrong answer.
 */
export const withDeclaredLength = (response: Response): Response => {
  const declared = response.headers.get("content-length")
  if (!response.body || declared === null || !/^\d+$/.test(declared)) return response
  const { readable, writable } = new FixedLengthStream(Number(declared))
  void response.body.pipeTo(writable).catch(() => {})
  return new Response(readable, response)
}
