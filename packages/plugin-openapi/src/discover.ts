/**
 * A source's spec -> its discovery: the spec loaded and compiled, then checked against the source: every scheme
 * its `auth` names must be one the spec declares and this server can use (OAuth 2 and OpenID Connect are refused
 * for now), and every operation must have an absolute http(s) server, which a host that refuses private addresses
 * checks here when it is an IP literal or `localhost` (a name is checked by its egress guard at each call).
 */
import { ResultEncodings, SourceRefusal, SourceRefusalCodes, classifyAddress, ipLiteral } from "@switchboard/core"
import type { Discovery } from "@switchboard/core"
import type { OpenApiSourceConfig } from "./config-schema.js"
import { compileSpec } from "./derive/compile.js"
import type { CompiledSpec } from "./derive/compile.js"
import { declaredSchemes } from "./derive/security.js"
import type { OpenApiDocument } from "./spec/parse-spec.js"
import { SpecProblem } from "./spec/spec-problem.js"

const UNSUPPORTED_AUTH =
  "OAuth 2, OpenID Connect and mutual TLS schemes cannot be used by sources yet; give a token for an http bearer or " +
  "apiKey scheme instead, or send it in the source's headers"

const checkAuth = (doc: OpenApiDocument, auth: Record<string, unknown>) => {
  const schemes = declaredSchemes(doc)
  for (const name of Object.keys(auth)) {
    const scheme = schemes.get(name)
    if (!scheme) {
      const known = [...schemes.keys()]
      const declared =
        known.length > 0 ? `it declares ${known.join(", ")}` : "it declares none: send credentials in headers"
      throw new SpecProblem(`auth.${name}`, `the spec declares no security scheme "${name}" (${declared})`)
    }
    if (scheme.type === "unsupported")
      throw new SpecProblem(`auth.${name}`, `security scheme "${name}" is ${scheme.declared}: ${UNSUPPORTED_AUTH}`)
    if (scheme.type === "http" && scheme.scheme !== "bearer" && scheme.scheme !== "basic")
      throw new SpecProblem(`auth.${name}`, `http scheme "${scheme.scheme}" is not supported (bearer and basic are)`)
  }
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

/** Compiles and checks a parsed spec; throws a SpecProblem (named by place) or a SourceRefusal. */
export const discoverSpec = (
  doc: OpenApiDocument,
  specUrl: string | undefined,
  config: Pick<OpenApiSourceConfig, "auth" | "baseUrl">,
  refusePrivate: boolean,
): Discovery => {
  const compiled = compileSpec(doc, specUrl ? { specUrl } : {})
  checkAuth(doc, config.auth ?? {})
  checkServers(compiled, config.baseUrl, refusePrivate)
  return { tools: compiled.tools, encoding: ResultEncodings.direct, definitions: compiled.definitions }
}
