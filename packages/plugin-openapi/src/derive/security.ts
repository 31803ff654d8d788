/**
 * The security an operation asks for (its own `security`, else the document's), as the schemes the spec declares:
 * HTTP bearer and basic and API keys are bound for calls; OAuth 2, OpenID Connect and mutual TLS are kept as
 * `unsupported`, and a source whose `auth` names one of them is refused when it is added.
 */
import { isRecord, own } from "@switchboard/core"
import type { SchemeBinding } from "../binding.js"
import { SpecProblem, at } from "../spec/spec-problem.js"
import { deref } from "../spec/refs.js"

export const declaredSchemes = (doc: Record<string, unknown>): Map<string, SchemeBinding> => {
  const schemes = new Map<string, SchemeBinding>()
  const declared = isRecord(doc.components) ? own(doc.components, "securitySchemes") : undefined
  if (!isRecord(declared)) return schemes
  for (const name of Object.keys(declared)) {
    const where = at("components.securitySchemes", name)
    const scheme = deref(doc, declared[name], where)
    if (!isRecord(scheme)) throw new SpecProblem(where, "a security scheme must be an object")
    const type = own(scheme, "type")
    if (type === "http" && typeof scheme.scheme === "string")
      schemes.set(name, { name, type: "http", scheme: scheme.scheme.toLowerCase() })
    else if (type === "apiKey") {
      const location = own(scheme, "in")
      const key = own(scheme, "name")
      if ((location !== "header" && location !== "query" && location !== "cookie") || typeof key !== "string")
        throw new SpecProblem(where, 'an apiKey scheme needs "in" (header, query or cookie) and "name"')
      schemes.set(name, { name, type: "apiKey", in: location, key })
    } else schemes.set(name, { name, type: "unsupported", declared: String(type) })
  }
  return schemes
}

export const deriveSecurity = (
  schemes: ReadonlyMap<string, SchemeBinding>,
  requirements: unknown,
  where: string,
): SchemeBinding[][] => {
  if (!Array.isArray(requirements)) return []
  return requirements.map((requirement, index) => {
    if (!isRecord(requirement)) throw new SpecProblem(at(where, index), "a security requirement must be an object")
    return Object.keys(requirement).map((name) => {
      const scheme = schemes.get(name)
      if (!scheme)
        throw new SpecProblem(
          at(where, index),
          `security scheme "${name}" is not declared in components.securitySchemes`,
        )
      return scheme
    })
  })
}
