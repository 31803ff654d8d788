/**
 * How to call one operation, derived from the spec when the source is synced and stored with the tool's row
 * (`DiscoveredTool.binding`), so a call needs neither the spec nor its parse: the method, the path template, where
 * each argument goes and how it is written, the body's media type and the security the operation asks for.
 */

export type ParameterLocation = "path" | "query" | "header" | "cookie"

export interface ParameterBinding {
  /** the parameter's name on the wire */
  name: string
  in: ParameterLocation
  /** the argument that carries it (its name, or `<in>_<name>` when another location has the same name) */
  arg: string
  /** OpenAPI's serialization style: simple, label, matrix, form, spaceDelimited, pipeDelimited, deepObject */
  style: string
  explode: boolean
  allowReserved?: boolean
  /** `content: application/json` instead of a schema: the value is sent as JSON text */
  json?: boolean
}

export interface BodyBinding {
  /** the media type the request is sent as */
  mediaType: string
  /** the argument holding the whole body; null when the body's own properties are arguments (`properties`) */
  arg: string | null
  properties?: string[]
  required: boolean
}

/** An OAuth 2 flow the spec declares: where its pages and tokens are, and the scopes it offers. */
export interface OAuthFlowBinding {
  /** the authorization code flow's page; absent for client credentials */
  authorizationUrl?: string
  tokenUrl: string
  offered: string[]
}

/** One security scheme an operation may be called with, as the spec declares it. */
export type SchemeBinding =
  | { name: string; type: "http"; scheme: string }
  | { name: string; type: "apiKey"; in: "header" | "query" | "cookie"; key: string }
  | {
      name: string
      type: "oauth2"
      flows: { authorizationCode?: OAuthFlowBinding; clientCredentials?: OAuthFlowBinding }
      /** every scope the spec's operations ask of it: what a login asks for */
      scopes: string[]
    }
  | { name: string; type: "unsupported"; declared: string }

export type OAuthSchemeBinding = Extract<SchemeBinding, { type: "oauth2" }>

export interface OperationBinding {
  method: string
  /** the path template, `/repos/{owner}/{repo}` */
  path: string
  /** the server the spec names for it (operation, path item or document); the source's `baseUrl` overrides it */
  server: string | null
  params: ParameterBinding[]
  body?: BodyBinding
  /** alternatives, each a list of schemes used together; `[]` (or an empty alternative) needs none */
  security: SchemeBinding[][]
}
