/**
 * The SourcePlugin for OpenAPI sources: discovery loads and compiles the spec (./discover.ts); a call needs only
 * the tool's stored binding (./call/invoke.ts). It keeps no connections and no spec in memory between calls, so a
 * Worker building it per request pays nothing for it.
 */
import { Context, Layer } from "effect"
import { SourceRefusalCodes, ToolErrorCodes, isRecord, parseRequest } from "@switchboard/core"
import type { OAuthEndpoints, SourceCredentials, SourceHandle, SourcePlugin } from "@switchboard/core"
import * as OAuth from "@switchboard/core/oauth"
import type { OperationBinding } from "./binding.js"
import { callOperation } from "./call/invoke.js"
import type { Fetch } from "./call/invoke.js"
import { openApiConfigView } from "./config-view.js"
import { scrubberOf } from "./config-secrets.js"
import { openApiSourceConfig, openApiSourcePatch } from "./config-schema.js"
import { mergeConfig } from "./config-merge.js"
import { securitySchemes } from "./derive/compile.js"
import { endpointsOf, loginSchemeOf, loginSubject, oauthEntryOf } from "./oauth-login.js"
import type { OpenApiSourceConfig } from "./config-schema.js"
import { discoverSpec } from "./discover.js"
import { loadSpecText } from "./load-spec.js"
import { parseDocument, parseSpec } from "./spec/parse-spec.js"
import { bundleRemoteRefs, hasRemoteRefs } from "./spec/remote-refs.js"
import { isSpecProblem } from "./spec/spec-problem.js"

export interface OpenApiPluginOptions {
  /**
   * The fetch every request goes through, the spec's included: the host's egress guard (on Node the same guarded
   * fetch http MCP sources use), which throws a SourceRefusal to refuse an address. Default: global fetch.
   */
  fetch?: Fetch
  /** refuse a baseUrl or spec server that is `localhost` or a non-public IP literal when the source is discovered */
  refusePrivateAddresses?: boolean
  /** the largest spec read (default 40 MiB: Microsoft Graph's is 37 MB) */
  maxSpecBytes?: number
  /** how long fetching a spec may take (default 60 s) */
  specTimeoutMs?: number
  /** a call's timeout when its source sets none (default 30 s) */
  callTimeoutMs?: number
  /** the largest JSON or text answer read (default 64 MiB) */
  maxResponseBytes?: number
  /** the largest binary answer handed on as base64 (default 8 MiB) */
  maxBinaryBytes?: number
  /** keys and elements a JSON answer may hold (default 50,000) */
  maxToolResultNodes?: number
  /**
   * core's OAuth credentials (`OAuth.createOAuthService(…).credentials`): a source whose operations need the spec's
   * oauth2 scheme then logs in (./oauth-login.ts). Without them, such an operation answers `auth_required`.
   */
  credentials?: SourceCredentials
}

export const DEFAULT_MAX_SPEC_BYTES = 40 * 1024 * 1024

const isBinding = (value: unknown): value is OperationBinding =>
  isRecord(value) && typeof value.method === "string" && typeof value.path === "string" && Array.isArray(value.params)

/**
 * The config as checked; an inline spec is compiled here too, so a spec that cannot be read is the caller's 400.
 * Where it may send calls is the discovery's to refuse (`private_address`), as for a spec by URL.
 */
const checkConfig = (config: unknown) => {
  const checked = parseRequest(openApiSourceConfig, config)
  if (!checked.ok) return { ok: false as const, reason: "invalid" as const, message: checked.error.message }
  const value = checked.value
  if ("inline" in value.spec) {
    try {
      discoverSpec(parseSpec(value.spec.inline, "spec.inline"), undefined, value, false)
    } catch (cause) {
      if (isSpecProblem(cause)) return { ok: false as const, reason: "invalid" as const, message: cause.message }
      throw cause
    }
  }
  return { ok: true as const, config: value }
}

export const createOpenApiPlugin = (options: OpenApiPluginOptions = {}): SourcePlugin => {
  const fetchFn: Fetch = options.fetch ?? ((input, init) => fetch(input, init))
  const refusePrivate = options.refusePrivateAddresses ?? false
  const limits = {
    maxBytes: options.maxResponseBytes ?? 64 * 1024 * 1024,
    maxBinaryBytes: options.maxBinaryBytes ?? 8 * 1024 * 1024,
    maxNodes: options.maxToolResultNodes ?? 50_000,
  }
  const configOf = (source: SourceHandle) => source.config as OpenApiSourceConfig
  const specLimits = {
    maxBytes: options.maxSpecBytes ?? DEFAULT_MAX_SPEC_BYTES,
    timeoutMs: options.specTimeoutMs ?? 60_000,
  }

  /** The source's spec, loaded and parsed, its same-origin documents bundled in. */
  const loadDocument = async (config: OpenApiSourceConfig) => {
    const spec = await loadSpecText(config.spec, fetchFn, specLimits)
    const doc = parseSpec(spec.text, spec.origin)
    if (spec.specUrl && hasRemoteRefs(spec.text))
      await bundleRemoteRefs(doc, spec.specUrl, async (url) =>
        parseDocument((await loadSpecText({ url }, fetchFn, { ...specLimits, where: url })).text, url),
      )
    return { doc, specUrl: spec.specUrl }
  }

  /** Where the source logs in, read from its spec when a login begins (core's `OAuthSource.endpoints`). */
  const declaredEndpoints = async (config: OpenApiSourceConfig): Promise<OAuthEndpoints> => {
    let loaded: Awaited<ReturnType<typeof loadDocument>>
    try {
      loaded = await loadDocument(config)
    } catch (cause) {
      // the spec could not be read: the service's failure, not the operator's
      if (isSpecProblem(cause)) throw Object.assign(new Error(scrubberOf(config)(cause.message)), { upstream: true })
      throw cause
    }
    const found = loginSchemeOf(securitySchemes(loaded.doc, loaded.specUrl).values(), config)
    if ("problem" in found) throw new Error(found.problem)
    if (!found.scheme)
      throw new Error(
        "the source's spec declares no oauth2 scheme (authorization code or client credentials) to log in with",
      )
    return endpointsOf(found.scheme, oauthEntryOf(config)?.settings ?? {})
  }

  /** Lists the tools once the source has the token its operations need; a login to make fails the discovery. */
  const withLogin = async (
    source: SourceHandle,
    found: ReturnType<typeof discoverSpec>,
  ): Promise<Awaited<ReturnType<SourcePlugin["discover"]>>> => {
    if (!found.login || !options.credentials) return { ok: true, discovery: found.discovery }
    const answer = await options.credentials.authorization(loginSubject(source, found.login))
    if (answer.ok && answer.authorization !== null) return { ok: true, discovery: found.discovery }
    if (answer.ok)
      return { ok: false, message: OAuth.authRequiredMessage(source.namespace), authRequired: "auth_required" }
    if (answer.code === SourceRefusalCodes.privateAddress)
      return { ok: false, message: answer.message, refused: SourceRefusalCodes.privateAddress }
    return { ok: false, message: answer.message, ...(answer.authRequired ? { authRequired: answer.authRequired } : {}) }
  }

  return {
    ...openApiConfigView,
    configSchema: openApiSourceConfig,
    patchSchema: openApiSourcePatch,
    validateConfig: checkConfig,
    mergeConfig,
    oauth: (config) => ({
      ...openApiConfigView.oauth(config),
      endpoints: () => declaredEndpoints(config as OpenApiSourceConfig),
    }),

    async discover(source) {
      const config = configOf(source)
      const scrub = scrubberOf(config)
      try {
        const { doc, specUrl } = await loadDocument(config)
        return await withLogin(source, discoverSpec(doc, specUrl, config, refusePrivate))
      } catch (cause) {
        const tag = (cause as { _tag?: unknown })._tag
        if (tag === "SourceRefusal") {
          const refusal = cause as { code: "private_address"; message: string }
          return { ok: false, message: refusal.message, refused: refusal.code }
        }
        if (isSpecProblem(cause)) return { ok: false, message: scrub(cause.message), upstreamError: true }
        throw cause
      }
    },

    invoke(source, tool, args, ctx) {
      const path = `${source.namespace}.${tool}`
      if (!isBinding(ctx.binding))
        return Promise.resolve({
          ok: false,
          code: ToolErrorCodes.toolNotFound,
          message: `${path} has no stored call binding; the source is synced again`,
          unknownTool: true,
        })
      const config = configOf(source)
      const hidden = new Set(Object.keys(config.headers ?? {}).map((name) => name.toLowerCase()))
      for (const alternative of ctx.binding.security)
        for (const scheme of alternative)
          if (scheme.type === "apiKey" && scheme.in === "header") hidden.add(scheme.key.toLowerCase())
      return callOperation({
        fetch: fetchFn,
        binding: ctx.binding,
        args: isRecord(args) ? args : {},
        config: { ...config, auth: config.auth ?? {}, headers: config.headers ?? {} },
        ctx,
        limits,
        scrub: scrubberOf(config),
        hiddenHeaders: hidden,
        path,
        defaultTimeoutMs: options.callTimeoutMs ?? 30_000,
        login: {
          credentials: options.credentials,
          namespace: source.namespace,
          subjectFor: (scheme) => loginSubject(source, scheme),
        },
      })
    },

    release: async () => {},
    close: async () => {},
  }
}

/** The plugin as a service, for a host's layers. */
export class OpenApiPlugin extends Context.Service<OpenApiPlugin, SourcePlugin>()(
  "@switchboard/plugin-openapi/OpenApiPlugin",
) {
  static readonly layer = (options: OpenApiPluginOptions = {}): Layer.Layer<OpenApiPlugin> =>
    Layer.sync(OpenApiPlugin, () => createOpenApiPlugin(options))
}
