/**
 * A source's spec -> its discovery: the spec loaded and compiled, then checked against the source: every scheme
 * its `auth` names must be one the spec declares and this server can use (OpenID Connect and mutual TLS are
 * refused), OAuth settings only for an oauth2 scheme whose flow they can use, and every operation must have an
 * absolute http(s) server, which a host that refuses private addresses checks here when it is an IP literal or
 * `localhost` (a name is checked by its egress guard at each call). It says which oauth2 scheme the source logs in
 * with when an operation needs it (./oauth-login.ts): the plugin then asks core for a token before it lists tools.
 */
import { ResultEncodings, SourceRefusal, SourceRefusalCodes, classifyAddress, ipLiteral } from "@switchboard/core"
import type { Discovery } from "@switchboard/core"
import type { OAuthSchemeBinding, SchemeBinding } from "./binding.js"
import { chosenAlternative, loginSchemeIn } from "./call/auth.js"
import type { OpenApiSourceConfig } from "./config-schema.js"
import { compileSpec } from "./derive/compile.js"
import type { CompiledSpec } from "./derive/compile.js"
import { endpointsOf, isOAuthEntry, loginSchemeOf, oauthEntryOf } from "./oauth-login.js"
import type { OpenApiDocument } from "./spec/parse-spec.js"
import { SpecProblem } from "./spec/spec-problem.js"

const UNSUPPORTED_AUTH =
  "OpenID Connect, mutual TLS and OAuth 2 schemes with only the implicit or password flows cannot be used by sources; " +
  "give a token for an http bearer, apiKey or oauth2 scheme instead, or send it in the source's headers"

/** What `auth` gives one scheme, checked against what the spec declares it to be. */
const checkCredential = (name: string, scheme: SchemeBinding, value: unknown) => {
  if (scheme.type === "unsupported")
    throw new SpecProblem(`auth.${name}`, `security scheme "${name}" is ${scheme.declared}: ${UNSUPPORTED_AUTH}`)
  if (isOAuthEntry(value) && scheme.type !== "oauth2")
    throw new SpecProblem(
      `auth.${name}`,
      `OAuth settings are for an oauth2 scheme, and "${name}" is ${scheme.type}: give it a token or key instead`,
    )
  if (scheme.type === "oauth2" && typeof value !== "string" && !isOAuthEntry(value))
    throw new SpecProblem(`auth.${name}`, `"${name}" is an oauth2 scheme: give it OAuth settings, or a token`)
  if (scheme.type === "http" && scheme.scheme !== "bearer" && scheme.scheme !== "basic")
    throw new SpecProblem(`auth.${name}`, `http scheme "${scheme.scheme}" is not supported (bearer and basic are)`)
}

const checkAuth = (schemes: ReadonlyMap<string, SchemeBinding>, auth: Record<string, unknown>) => {
  for (const [name, value] of Object.entries(auth)) {
    const scheme = schemes.get(name)
    if (!scheme) {
      const known = [...schemes.keys()]
      const declared =
        known.length > 0 ? `it declares ${known.join(", ")}` : "it declares none: send credentials in headers"
      throw new SpecProblem(`auth.${name}`, `the spec declares no security scheme "${name}" (${declared})`)
    }
    checkCredential(name, scheme, value)
  }
}

/** The oauth2 scheme the source logs in with when some operation needs it, its flow checked; else null. */
const loginNeeded = (compiled: CompiledSpec, config: Pick<OpenApiSourceConfig, "auth">): OAuthSchemeBinding | null => {
  const found = loginSchemeOf(compiled.schemes.values(), config)
  if ("problem" in found) throw new SpecProblem("auth", found.problem)
  if (!found.scheme) return null
  try {
    endpointsOf(found.scheme, oauthEntryOf(config)?.settings ?? {})
  } catch (cause) {
    throw new SpecProblem(`auth.${found.scheme.name}`, (cause as Error).message)
  }
  const calls = { auth: config.auth ?? {} }
  const needed = compiled.tools.some((tool) => loginSchemeIn(chosenAlternative(tool.binding.security, calls), calls))
  return needed ? found.scheme : null
}

const privateRefusal = (where: string, host: string, kind: string) =>
  new SourceRefusal({
    code: SourceRefusalCodes.privateAddress,
    message:
      `${where} points at "${host}", a ${kind} address: this server refuses loopback, private, link-local and ` +
      "metadata addresses for sources; start it with --allow-private-sources to allow them",
  })

const checkServers = (compiled: CompiledSpec, baseUrl: string | undefined, refusePrivate: boolean) => {
  // each server once, named by the first operation that uses it
  const bases = new Map<string, string>(baseUrl ? [[baseUrl, "baseUrl"]] : [])
  if (!baseUrl)
    for (const t of compiled.tools)
      if (!bases.has(t.binding.server ?? "")) bases.set(t.binding.server ?? "", `servers[0].url of ${t.name}`)
  for (const [base, where] of bases) {
    let url: URL
    try {
      url = new URL(base)
    } catch {
      throw new SpecProblem(
        where,
        base === ""
          ? "the spec names no server: give the source a baseUrl"
          : `"${base}" is not an absolute URL: give the source a baseUrl`,
      )
    }
    if (url.protocol !== "http:" && url.protocol !== "https:")
      throw new SpecProblem(where, `"${base}" is not http or https`)
    if (!refusePrivate) continue
    if (/(^|\.)localhost\.?$/i.test(url.hostname)) throw privateRefusal(where, url.hostname, "loopback")
    const literal = ipLiteral(url.hostname)
    const kind = literal === null ? "public" : classifyAddress(literal)
    if (kind !== "public") throw privateRefusal(where, url.hostname, kind)
  }
}

/**
 * Compiles and checks a parsed spec; throws a SpecProblem (named by place) or a SourceRefusal. `login`: the oauth2
 * scheme the source logs in with, when an operation needs it.
 */
export const discoverSpec = (
  doc: OpenApiDocument,
  specUrl: string | undefined,
  config: Pick<OpenApiSourceConfig, "auth" | "baseUrl">,
  refusePrivate: boolean,
): { discovery: Discovery; login: OAuthSchemeBinding | null } => {
  const compiled = compileSpec(doc, specUrl ? { specUrl } : {})
  checkAuth(compiled.schemes, config.auth ?? {})
  const login = loginNeeded(compiled, config)
  checkServers(compiled, config.baseUrl, refusePrivate)
  const discovery = { tools: compiled.tools, encoding: ResultEncodings.direct, definitions: compiled.definitions }
  return { discovery, login }
}
