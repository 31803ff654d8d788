/**
 * A source's spec text: inline, or fetched from `spec.url` through the host's fetch (its egress guard), within a
 * time and a size bound: a body past `maxBytes` is not read further, and one that says so up front is not read.
 */
import { findRefusal } from "@switchboard/core"
import { isSpecProblem, SpecProblem } from "./spec/spec-problem.js"
import type { Fetch } from "./call/invoke.js"
import { excerpt } from "./call/read-response.js"

export interface SpecText {
  text: string
  /** how messages name the spec */
  origin: string
  /** where relative server URLs are resolved from */
  specUrl?: string
}

const mib = (bytes: number) => `${Math.round((bytes / 1024 / 1024) * 10) / 10} MiB`

const tooLarge = (where: string, maxBytes: number) =>
  new SpecProblem(where, `the spec is larger than ${mib(maxBytes)}, the most this server reads`)

const readText = async (response: Response, maxBytes: number, where: string) => {
  const declared = Number(response.headers.get("content-length") ?? Number.NaN)
  if (declared > maxBytes) {
    await response.body?.cancel().catch(() => undefined)
    throw tooLarge(where, maxBytes)
  }
  if (!response.body) return ""
  const reader = response.body.getReader()
  const decoder = new TextDecoder()
  let text = ""
  let total = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    total += value.byteLength
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined)
      throw tooLarge(where, maxBytes)
    }
    text += decoder.decode(value, { stream: true })
  }
  return text + decoder.decode()
}

export const loadSpecText = async (
  spec: { url: string } | { inline: string },
  fetch: Fetch,
  { maxBytes, timeoutMs, where = "spec.url" }: { maxBytes: number; timeoutMs: number; where?: string },
): Promise<SpecText> => {
  if ("inline" in spec) {
    if (spec.inline.length > maxBytes) throw tooLarge("spec.inline", maxBytes)
    return { text: spec.inline, origin: "spec.inline" }
  }
  const signal = AbortSignal.timeout(timeoutMs)
  try {
    const response = await fetch(spec.url, { headers: { accept: "application/json, application/yaml, */*" }, signal })
    if (!response.ok) {
      const body = await response.text().catch(() => "")
      throw new SpecProblem(
        where,
        `fetching the spec answered HTTP ${response.status}${body ? `: ${excerpt(body.slice(0, 4096))}` : ""}`,
      )
    }
    return { text: await readText(response, maxBytes, where), origin: where, specUrl: response.url || spec.url }
  } catch (cause) {
    if (isSpecProblem(cause)) throw cause
    const refusal = findRefusal(cause)
    if (refusal) throw refusal
    if (signal.aborted) throw new SpecProblem(where, `fetching the spec took longer than ${timeoutMs} ms`)
    const inner = (cause as { cause?: unknown }).cause
    const reason = inner instanceof Error ? inner.message : cause instanceof Error ? cause.message : String(cause)
    throw new SpecProblem(where, `the spec could not be fetched: ${excerpt(reason)}`)
  }
}
