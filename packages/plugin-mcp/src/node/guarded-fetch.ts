/**
 * The Node host's egress guard for http sources (ARCHITECTURE.md: safety): a fetch that refuses loopback, private,
 * link-local and metadata addresses, after DNS resolution and on every redirect. Node-only (node:dns, undici):
 * a Workers host cannot resolve names and supplies its own fetch.
 *
 * The check runs inside the socket's own DNS lookup (undici's `connect.lookup`, handed to net/tls.connect), so
 * the address that is connected to is the address that was vetted: a name cannot resolve to a public address
 * for the check and to 127.0.0.1 for the connection (DNS rebinding). An IP literal skips lookup in Node, so it is
 * checked before the request, and so is `localhost` and any name under it. Redirects are followed here by hand, each hop checked the same way; a caller that
 * asks for `redirect: "manual"` (the MCP SDK does, to follow only same-origin hops) gets each hop back and calls
 * again, which is checked again.
 */
import { lookup as dnsLookup } from "node:dns/promises"
import type { LookupFunction } from "node:net"
import type { Agent, fetch as undiciFetch } from "undici"
import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js"
import { SourceRefusal, SourceRefusalCodes, classifyAddress, ipLiteral } from "@switchboard/core"
import type { AddressClass } from "@switchboard/core"

export interface ResolvedAddress {
  address: string
  family: number
}

export interface GuardedFetchOptions {
  /** every address a name resolves to (default: node:dns `lookup` with `all`, as the OS resolver answers) */
  resolve?: (hostname: string) => Promise<ResolvedAddress[]>
  /** which addresses are allowed: only `public` ones are (default: `classifyAddress`) */
  classify?: (address: string) => AddressClass
  /** redirects followed for a caller that lets fetch follow them (default 5) */
  maxRedirects?: number
}

export type GuardedFetch = FetchLike & { close(): Promise<void> }

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308])

/** The refusal names the host and the kind of address, never the address a name resolved to (that would map an internal network). */
export const privateAddressRefusal = (host: string, kind: AddressClass) =>
  new SourceRefusal({
    code: SourceRefusalCodes.privateAddress,
    message:
      `"${host}" is ${kind === "invalid" ? "not a usable address" : `a ${kind} address`}: this server listens beyond loopback and refuses ` +
      "loopback, private, link-local and metadata addresses for http sources; start it with --allow-private-sources to allow them",
  })

const defaultResolve = (hostname: string) => dnsLookup(hostname, { all: true, verbatim: true })

export const createGuardedFetch = (options: GuardedFetchOptions = {}): GuardedFetch => {
  const resolve = options.resolve ?? defaultResolve
  const classify = options.classify ?? classifyAddress
  const maxRedirects = options.maxRedirects ?? 5

  const vet = (host: string, addresses: ResolvedAddress[]) => {
    if (addresses.length === 0) throw privateAddressRefusal(host, "invalid")
    // every address, not the first: a client may fall back to any of them (happy eyeballs)
    for (const { address } of addresses) {
      const kind = classify(address)
      if (kind !== "public") throw privateAddressRefusal(host, kind)
    }
  }

  const lookup = ((
    hostname: string,
    lookupOptions: { all?: boolean; family?: number },
    callback: (...args: unknown[]) => void,
  ) => {
    resolve(hostname).then(
      (addresses) => {
        try {
          vet(hostname, addresses)
        } catch (refusal) {
          return callback(refusal)
        }
        if (lookupOptions.all) return callback(null, addresses)
        const wanted = lookupOptions.family ? addresses.find((a) => a.family === lookupOptions.family) : undefined
        const first = wanted ?? addresses[0]!
        callback(null, first.address, first.family)
      },
      (error) => callback(error),
    )
  }) as unknown as LookupFunction

  // undici is a megabyte of JavaScript: loaded at the first request through the guard, not when the host starts
  let undici: Promise<{ agent: Agent; fetch: typeof undiciFetch }> | undefined
  const loadUndici = () =>
    (undici ??= import("undici").then(({ Agent, fetch }) => ({ agent: new Agent({ connect: { lookup } }), fetch })))

  const checkHost = (url: URL) => {
    // RFC 6761: `localhost` and every name under it are loopback, whatever a resolver says (some answer ENOTFOUND)
    if (/(^|\.)localhost\.?$/i.test(url.hostname)) throw privateAddressRefusal(url.hostname, "loopback")
    const literal = ipLiteral(url.hostname)
    if (literal === null) return
    const kind = classify(literal)
    if (kind !== "public") throw privateAddressRefusal(url.hostname, kind)
  }

  const guarded = async (input: string | URL, init: RequestInit = {}): Promise<Response> => {
    let url = new URL(String(input))
    const follow = (init.redirect ?? "follow") === "follow"
    let hopInit: RequestInit = { ...init }
    for (let hop = 0; ; hop++) {
      checkHost(url)
      const { agent, fetch } = await loadUndici()
      const response = (await fetch(url, {
        ...(hopInit as object),
        redirect: follow ? "manual" : init.redirect,
        dispatcher: agent,
      } as never)) as unknown as Response
      const location = follow && REDIRECT_STATUSES.has(response.status) ? response.headers.get("location") : null
      if (location === null) return response
      await response.body?.cancel()
      if (hop >= maxRedirects) throw new Error(`the http source redirected more than ${maxRedirects} times`)
      const next = new URL(location, url)
      if (next.protocol !== "http:" && next.protocol !== "https:")
        throw new Error(`the http source redirected to a ${next.protocol} URL`)
      const method = (hopInit.method ?? "GET").toUpperCase()
      const headers = new Headers(hopInit.headers)
      // fetch's own rules: 303 (and 301/302 after a POST) becomes a GET without a body; credentials stay with their origin
      if (
        response.status === 303
          ? method !== "HEAD"
          : (response.status === 301 || response.status === 302) && method === "POST"
      ) {
        hopInit = { ...hopInit, method: "GET", body: undefined }
        for (const name of [
          "content-type",
          "content-length",
          "content-encoding",
          "content-language",
          "content-location",
        ])
          headers.delete(name)
      }
      if (next.origin !== url.origin)
        for (const name of ["authorization", "cookie", "proxy-authorization"]) headers.delete(name)
      hopInit = { ...hopInit, headers }
      url = next
    }
  }

  // destroy, not close: a host shutting down does not wait on a source's open stream
  return Object.assign(guarded, { close: async () => (undici ? (await undici).agent.destroy() : undefined) })
}
