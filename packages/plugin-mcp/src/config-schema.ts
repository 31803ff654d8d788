/**
 * The MCP source's part of the API bodies, defined once: `transport` when a source is added, and what a PATCH
 * may replace. `checkConfig` and `mergeConfig` (./config.ts) check with these, and the plugin hands them to core,
 * whose sources service lists them for the API's OpenAPI document. Each message names the field it is about.
 */
import { z } from "zod"
import { isRecord } from "@switchboard/core"
import * as OAuth from "@switchboard/core/oauth"

const stringMap = (field: string) => {
  const error = `transport.${field} must be an object of string values`
  return z.record(z.string(), z.string({ error }), { error })
}

const stringList = (field: string) => {
  const error = `transport.${field} must be an array of strings`
  return z.array(z.string({ error }), { error })
}

// a URL may carry a token (in its query or path): what is refused is never echoed
const NOT_A_URL =
  "transport.url is not a URL: it needs http:// or https:// and a host, such as https://mcp.example.com/mcp"

/** http or https, without userinfo (fetch refuses it); given back in its normal form. */
const httpUrl = z
  .string({ error: NOT_A_URL })
  .transform((url, ctx) => {
    let parsed: URL
    try {
      parsed = new URL(url)
    } catch {
      ctx.issues.push({ code: "custom", input: url, message: NOT_A_URL })
      return z.NEVER
    }
    if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
      ctx.issues.push({ code: "custom", input: url, message: "transport.url must be http or https" })
      return z.NEVER
    }
    // the message never echoes the credentials
    if (parsed.username || parsed.password) {
      ctx.issues.push({
        code: "custom",
        input: url,
        message:
          "transport.url must not carry a user or password (user:password@host): send credentials as a header instead, " +
          'e.g. transport.headers: { "authorization": "Basic <base64 of user:password>" }',
      })
      return z.NEVER
    }
    return parsed.toString()
  })
  .meta({ format: "uri" })

const command = z
  .string({ error: "transport.command must be a non-empty string" })
  .min(1, { error: "transport.command must be a non-empty string" })

export const stdioTransport = z
  .object({
    type: z.literal("stdio"),
    command,
    args: stringList("args").default([]),
    env: stringMap("env").default({}).describe("secret: values are never echoed"),
    cwd: z.string({ error: "transport.cwd must be a string" }).optional(),
  })
  .describe(
    "runs a command on the server's host: refused (403 source_disabled) unless the host allows it " +
      "(the Node host with --allow-stdio; never on Cloudflare Workers); relative paths in command, args and cwd are " +
      "stored absolute, taken from the server's working directory (in a config file, from the file's folder), " +
      "and a command or script that is not there is 400",
  )

export const httpTransport = z.object({
  type: z.literal("http"),
  url: httpUrl.describe("http or https; echoed with its query values and token-like path segments redacted"),
  headers: stringMap("headers").default({}).describe("secret: values are never echoed"),
})

export const mcpTransport = z.discriminatedUnion("type", [stdioTransport, httpTransport], {
  error: (issue) =>
    isRecord(issue.input)
      ? `transport.type must be "stdio" or "http" (got ${JSON.stringify(issue.input.type)})`
      : 'an mcp source needs "transport": {"type":"stdio",...} or {"type":"http",...}',
})

/**
 * The fields of POST /v1/sources an mcp source takes besides namespace and kind: its transport, and for an http
 * source, how it logs in with OAuth (`auth`, core's settings; a source whose 401 names its metadata needs none).
 */
export const mcpSourceConfig = z
  .object(
    { transport: mcpTransport, auth: OAuth.oauthSettings.optional() },
    { error: 'an mcp source needs "transport": {"type":"stdio",...} or {"type":"http",...}' },
  )
  .refine((config) => config.auth === undefined || config.transport.type === "http", {
    error: "auth (OAuth) is for http sources only: a stdio source gets its credentials in transport.env",
    path: ["auth"],
  })

/** The transport fields a PATCH may replace, each whole: the ones that hold credentials. */
const PATCHABLE = { stdio: ["env", "args"], http: ["headers", "url"] } as const

const transportPatch = (type: keyof typeof PATCHABLE, fields: z.ZodRawShape, shape: string) => {
  const list = PATCHABLE[type].map((f) => `"transport.${f}"`).join(" or ")
  return z
    .strictObject(fields, {
      error: (issue) =>
        issue.code === "unrecognized_keys"
          ? `a PATCH of a ${type} source replaces only ${list}, not ${issue.keys.map((f) => `"transport.${f}"`).join(", ")}; ` +
            "delete and add the source to change the rest"
          : shape,
    })
    .refine((given) => Object.keys(given).length > 0, { error: shape })
}

const STDIO_PATCH =
  'the body must be {"transport": {...}} with "transport.env" or "transport.args" to replace (a stdio source)'
const HTTP_PATCH =
  'the body must be {"transport": {...}} with "transport.headers" or "transport.url", and/or {"auth": {...}}, to replace (an http source)'

/** A PATCH of each transport's source; checked as a whole by checkConfig once merged. */
export const mcpSourcePatch = {
  stdio: z.strictObject(
    {
      transport: transportPatch(
        "stdio",
        { env: stringMap("env").optional(), args: stringList("args").optional() },
        STDIO_PATCH,
      ),
    },
    {
      error: (issue) =>
        issue.code === "unrecognized_keys" && issue.keys.includes("auth")
          ? "auth (OAuth) is for http sources only: a stdio source gets its credentials in transport.env"
          : STDIO_PATCH,
    },
  ),
  http: z
    .strictObject(
      {
        transport: transportPatch(
          "http",
          { headers: stringMap("headers").optional(), url: httpUrl.optional() },
          HTTP_PATCH,
        ).optional(),
        auth: OAuth.oauthSettings
          .optional()
          .describe(
            "the source's OAuth settings, whole (`{}` removes them); a change of client, grant or server drops its login",
          ),
      },
      { error: HTTP_PATCH },
    )
    .refine((given) => given.transport !== undefined || given.auth !== undefined, { error: HTTP_PATCH }),
}

/** Either transport's PATCH, as the OpenAPI document shows it. */
export const anyMcpSourcePatch = z
  .union([mcpSourcePatch.stdio, mcpSourcePatch.http])
  .describe(
    "the fields to replace, each whole: `transport.env` or `transport.args` (stdio); `transport.headers`, `transport.url` " +
      "or `auth` (http)",
  )
