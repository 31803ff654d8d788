/**
 * Parameter values written as OpenAPI's styles say (OpenAPI 3.1 §4.8.12.4): path `simple`, `label` and `matrix`;
 * query `form` (exploded or not), `spaceDelimited`, `pipeDelimited` and `deepObject`; headers `simple`; cookies
 * `form`. Values are percent-encoded here (reserved characters kept where `allowReserved` says so).
 */
import { isRecord } from "@switchboard/core"
import type { ParameterBinding } from "../binding.js"

/** a scalar as text; an object or array where a scalar belongs as JSON */
const text = (value: unknown): string =>
  value === null || value === undefined ? "" : typeof value === "object" ? JSON.stringify(value) : String(value)

const RESERVED = /%(3A|2F|3F|23|5B|5D|40|21|24|26|27|28|29|2A|2B|2C|3B|3D)/gi

export const encode = (value: string, allowReserved = false) => {
  const encoded = encodeURIComponent(value)
  return allowReserved ? encoded.replace(RESERVED, (escape) => decodeURIComponent(escape)) : encoded
}

const entries = (value: Record<string, unknown>) => Object.entries(value).filter(([, v]) => v !== undefined)

/** A path parameter's replacement for `{name}`. */
export const pathValue = (param: ParameterBinding, value: unknown): string => {
  const e = (v: unknown) => encode(text(v), param.allowReserved)
  const { style, explode, name } = param
  if (Array.isArray(value)) {
    if (style === "label") return `.${value.map(e).join(explode ? "." : ",")}`
    if (style === "matrix")
      return explode ? value.map((v) => `;${name}=${e(v)}`).join("") : `;${name}=${value.map(e).join(",")}`
    return value.map(e).join(",")
  }
  if (isRecord(value)) {
    const pairs = entries(value)
    const joined = explode ? pairs.map(([k, v]) => `${e(k)}=${e(v)}`) : pairs.flatMap(([k, v]) => [e(k), e(v)])
    if (style === "label") return `.${joined.join(explode ? "." : ",")}`
    if (style === "matrix") return explode ? joined.map((p) => `;${p}`).join("") : `;${name}=${joined.join(",")}`
    return joined.join(",")
  }
  if (style === "label") return `.${e(value)}`
  if (style === "matrix") return `;${name}=${e(value)}`
  return e(value)
}

/** A query parameter as `key=value` pairs, already encoded. */
export const queryPairs = (param: ParameterBinding, value: unknown): string[] => {
  const e = (v: unknown) => encode(text(v), param.allowReserved)
  const name = encode(param.name)
  if (param.json) return [`${name}=${e(JSON.stringify(value))}`]
  if (Array.isArray(value)) {
    if (param.explode && param.style === "form") return value.map((v) => `${name}=${e(v)}`)
    const separator = param.style === "spaceDelimited" ? "%20" : param.style === "pipeDelimited" ? "|" : ","
    return [`${name}=${value.map(e).join(separator)}`]
  }
  if (isRecord(value)) {
    if (param.style === "deepObject") return deepPairs(name, value, e)
    const pairs = entries(value)
    if (param.explode) return pairs.map(([k, v]) => `${encode(k)}=${e(v)}`)
    return [`${name}=${pairs.flatMap(([k, v]) => [e(k), e(v)]).join(",")}`]
  }
  return [`${name}=${e(value)}`]
}

/** `filter[kind]=cat&filter[age][min]=2`: nested objects go deeper, arrays repeat their key. */
const deepPairs = (prefix: string, value: unknown, e: (v: unknown) => string): string[] => {
  if (Array.isArray(value)) return value.flatMap((item) => deepPairs(`${prefix}%5B%5D`, item, e))
  if (isRecord(value)) return entries(value).flatMap(([k, v]) => deepPairs(`${prefix}%5B${encode(k)}%5D`, v, e))
  return [`${prefix}=${e(value)}`]
}

/** A header parameter's value (`simple`). */
export const headerValue = (param: ParameterBinding, value: unknown): string => {
  if (param.json) return JSON.stringify(value)
  if (Array.isArray(value)) return value.map(text).join(",")
  if (isRecord(value))
    return entries(value)
      .flatMap(([k, v]) => (param.explode ? [`${k}=${text(v)}`] : [k, text(v)]))
      .join(",")
  return text(value)
}

/** A cookie parameter as `name=value` (`form`). */
export const cookiePair = (param: ParameterBinding, value: unknown): string => {
  const v = param.json ? JSON.stringify(value) : Array.isArray(value) ? value.map(text).join(",") : text(value)
  return `${param.name}=${encode(v)}`
}
