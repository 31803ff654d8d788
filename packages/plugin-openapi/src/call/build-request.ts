/**
 * A call's arguments -> the HTTP request the operation's binding describes: the path template filled in (each value
 * encoded), the query, headers and cookies from the parameters, the credentials (./auth.ts), and the body in its media type
 * (JSON; a form; multipart, where `{ base64, contentType?, filename? }` is a file; or text or bytes as they are).
 */
import { isRecord } from "@switchboard/core"
import type { BodyBinding, OperationBinding } from "../binding.js"
import type { Credentials } from "./auth.js"
import { cookiePair, headerValue, pathValue, queryPairs } from "./serialize.js"

export interface SourceRequestConfig {
  baseUrl?: string
  auth: Record<string, unknown>
  headers: Record<string, string>
}

export type BuiltRequest = { ok: true; url: string; init: RequestInit } | { ok: false; message: string }

const fromBase64 = (text: string) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0))

const isFile = (value: unknown): value is { base64: string; contentType?: string; filename?: string } =>
  isRecord(value) && typeof value.base64 === "string"

const scalar = (value: unknown) => (typeof value === "object" && value !== null ? JSON.stringify(value) : String(value))

const bodyValue = (body: BodyBinding, args: Record<string, unknown>) => {
  if (body.arg !== null) return args[body.arg]
  const value: Record<string, unknown> = {}
  for (const name of body.properties ?? [])
    if (args[name] !== undefined)
      Object.defineProperty(value, name, { value: args[name], enumerable: true, writable: true, configurable: true })
  return Object.keys(value).length > 0 || body.required ? value : undefined
}

const encodeBody = (body: BodyBinding, value: unknown): { body: NonNullable<RequestInit["body"]>; type?: string } => {
  const type = body.mediaType.toLowerCase()
  if (type.startsWith("application/x-www-form-urlencoded")) {
    const form = new URLSearchParams()
    for (const [k, v] of Object.entries(isRecord(value) ? value : {}))
      for (const item of Array.isArray(v) ? v : [v]) if (item !== undefined) form.append(k, scalar(item))
    return { body: form.toString(), type: "application/x-www-form-urlencoded" }
  }
  if (type.startsWith("multipart/form-data")) {
    const form = new FormData()
    for (const [k, v] of Object.entries(isRecord(value) ? value : {}))
      for (const item of Array.isArray(v) ? v : [v]) {
        if (item === undefined) continue
        if (isFile(item))
          form.append(
            k,
            new Blob([fromBase64(item.base64)], { type: item.contentType ?? "application/octet-stream" }),
            item.filename ?? k,
          )
        else if (isRecord(item)) form.append(k, new Blob([JSON.stringify(item)], { type: "application/json" }))
        else form.append(k, String(item))
      }
    // fetch writes the boundary into the content type
    return { body: form }
  }
  if (/json/.test(type)) return { body: JSON.stringify(value), type: body.mediaType }
  if (isFile(value)) return { body: fromBase64(value.base64), type: value.contentType ?? body.mediaType }
  return { body: typeof value === "string" ? value : JSON.stringify(value), type: body.mediaType }
}

export const buildRequest = (
  binding: OperationBinding,
  args: Record<string, unknown>,
  config: SourceRequestConfig,
  credentials: Credentials,
): BuiltRequest => {
  const base = config.baseUrl ?? binding.server
  if (!base) return { ok: false, message: "the source has no baseUrl and the spec names no server for this operation" }
  let path = binding.path
  const query: string[] = []
  const headers = new Headers()
  for (const [name, value] of Object.entries(config.headers)) headers.set(name, value)
  const cookies: string[] = []
  for (const param of binding.params) {
    const value = args[param.arg]
    if (param.in === "path") {
      if (value === undefined) return { ok: false, message: `path parameter "${param.arg}" is required` }
      path = path.split(`{${param.name}}`).join(pathValue(param, value))
    } else if (value === undefined) continue
    else if (param.in === "query") query.push(...queryPairs(param, value))
    else if (param.in === "header") headers.set(param.name, headerValue(param, value))
    else cookies.push(cookiePair(param, value))
  }
  for (const [name, value] of credentials.headers) headers.set(name, value)
  query.push(...credentials.query)
  cookies.push(...credentials.cookies)
  if (cookies.length > 0) headers.set("cookie", [headers.get("cookie"), ...cookies].filter(Boolean).join("; "))
  if (!headers.has("accept")) headers.set("accept", "application/json, */*;q=0.8")

  const init: RequestInit = { method: binding.method.toUpperCase(), headers, redirect: "follow" }
  const value = binding.body ? bodyValue(binding.body, args) : undefined
  if (binding.body && value !== undefined) {
    const encoded = encodeBody(binding.body, value)
    init.body = encoded.body
    if (encoded.type) headers.set("content-type", encoded.type)
  }
  const url = `${base.replace(/\/+$/, "")}${path.startsWith("/") ? path : `/${path}`}`
  return { ok: true, url: query.length > 0 ? `${url}${url.includes("?") ? "&" : "?"}${query.join("&")}` : url, init }
}
