/**
 * The security an operation asks for (its own `security`, else the document's), as the schemes the spec declares:
 * HTTP bearer and basic, API keys and OAuth 2 (its authorization code and client credentials flows, with every scope
 * the operations ask of it) are bound for calls; OpenID Connect, mutual TLS and OAuth 2 with only the implicit or
 * password flows are kept as `unsupported`, and a source whose `auth` names one of them is refused when it is added.
 */
import { isRecord, own } from "@switchboard/core"
import type { OAuthFlowBinding, SchemeBinding } from "../binding.js"
import { SpecProblem, at } from "../spec/spec-problem.js"
import { deref } from "../spec/refs.js"

export interface SchemeContext {
  /** where the spec came from: a relative flow URL is taken from there */
  specUrl?: string
  /** every `security` list of the spec (the document's, each operation's): what scopes each scheme is asked for */
  requirements?: readonly unknown[]
}

/** The scopes each scheme is asked for, over every requirement list. */
const askedScopes = (requirements: readonly unknown[]) => {
  const asked = new Map<string, Set<string>>()
  for (const list of requirements)
    for (const requirement of Array.isArray(list) ? list : [])
      for (const [name, scopes] of Object.entries(isRecord(requirement) ? requirement : {})) {
        const set = asked.get(name) ?? new Set<string>()
        for (const scope of Array.isArray(scopes) ? scopes : []) if (typeof scope === "string") set.add(scope)
        asked.set(name, set)
      }
  return asked
}

const flowUrl = (value: unknown, where: string, specUrl: string | undefined) => {
  if (typeof value !== "string" || value === "") throw new SpecProblem(where, "must be a URL")
  try {
    return specUrl ? new URL(value, specUrl).toString() : new URL(value).toString()
  } catch {
    // a relative URL in an inline spec: an operator's override can still give it
    return value
  }
}

/** An OAuth 2 scheme's flows this server can log in with: authorization code and client credentials. */
const oauthFlows = (scheme: Record<string, unknown>, where: string, specUrl: string | undefined) => {
  const flows = own(scheme, "flows")
  if (!isRecord(flows)) throw new SpecProblem(where, 'an oauth2 scheme needs "flows"')
  const flow = (name: "authorizationCode" | "clientCredentials"): OAuthFlowBinding | undefined => {
    const declared = own(flows, name)
    if (declared === undefined) return undefined
    const flowWhere = at(at(where, "flows"), name)
    if (!isRecord(declared)) throw new SpecProblem(flowWhere, "a flow must be an object")
    const scopes = own(declared, "scopes")
    return {
      ...(name === "authorizationCode"
        ? { authorizationUrl: flowUrl(own(declared, "authorizationUrl"), at(flowWhere, "authorizationUrl"), specUrl) }
        : {}),
      tokenUrl: flowUrl(own(declared, "tokenUrl"), at(flowWhere, "tokenUrl"), specUrl),
      offered: isRecord(scopes) ? Object.keys(scopes) : [],
    }
  }
  const authorizationCode = flow("authorizationCode")
  const clientCredentials = flow("clientCredentials")
  return authorizationCode || clientCredentials
    ? { ...(authorizationCode ? { authorizationCode } : {}), ...(clientCredentials ? { clientCredentials } : {}) }
    : null
}

export const declaredSchemes = (
  doc: Record<string, unknown>,
  { specUrl, requirements = [] }: SchemeContext = {},
): Map<string, SchemeBinding> => {
  const schemes = new Map<string, SchemeBinding>()
  const declared = isRecord(doc.components) ? own(doc.components, "securitySchemes") : undefined
  if (!isRecord(declared)) return schemes
  const asked = askedScopes(requirements)
  for (const name of Object.keys(declared)) {
    const where = at("components.securitySchemes", name)
    const scheme = deref(doc, declared[name], where)
    if (!isRecord(scheme)) throw new SpecProblem(where, "a security scheme must be an object")
    const type = own(scheme, "type")
    const flows = type === "oauth2" ? oauthFlows(scheme, where, specUrl) : null
    if (type === "http" && typeof scheme.scheme === "string")
      schemes.set(name, { name, type: "http", scheme: scheme.scheme.toLowerCase() })
    else if (flows) schemes.set(name, { name, type: "oauth2", flows, scopes: [...(asked.get(name) ?? [])] })
    else if (type === "oauth2")
      schemes.set(name, { name, type: "unsupported", declared: "oauth2 with only implicit or password flows" })
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
