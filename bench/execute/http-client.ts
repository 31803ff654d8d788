/** A keep-alive HTTP client for loopback round trips, as light as Node allows (no fetch machinery). */
import http from "node:http"

export const createClient = (url: string, maxSockets = 1, headers: Record<string, string> = {}) => {
  const { hostname, port } = new URL(url)
  const agent = new http.Agent({ keepAlive: true, maxSockets })
  const post = (path: string, body: string) =>
    new Promise<{ status: number; text: string }>((resolve, reject) => {
      const request = http.request(
        {
          host: hostname,
          port,
          path,
          method: "POST",
          agent,
          headers: { ...headers, "content-type": "application/json", "content-length": Buffer.byteLength(body) },
        },
        (response) => {
          const chunks: Buffer[] = []
          response.on("data", (chunk: Buffer) => chunks.push(chunk))
          response.on("end", () =>
            resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8") }),
          )
        },
      )
      request.on("error", reject)
      request.end(body)
    })
  return { post, close: () => agent.destroy() }
}

/** A bare loopback server that answers every POST with a constant: the HTTP floor. */
export const startBareServer = async () => {
  const server = http.createServer((request, response) => {
    request.resume()
    request.on("end", () => response.end('{"result":2}'))
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as { port: number }
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) }
}
