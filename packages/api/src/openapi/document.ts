/**
 * The OpenAPI 3.1 description of the HTTP API, served at GET /v1/openapi.json, written from the routes' own
 * definitions (../routes/all-routes.ts; each operation by ./operation.ts). Every body and query parameter is
 * generated from its one zod definition (./components.ts). test/openapi.test.ts checks that every route the app
 * registers is here and nothing else; apps/server/test/http/openapi-conformance.test.ts checks real requests and
 * answers against it.
 */
import type { z } from "zod"
import type { SourceKind } from "@switchboard/core"
import { MCP_SERVER_INFO } from "../mcp/server-info.js"
import { allRoutes } from "../routes/all-routes.js"
import { componentSchemas, requestSchemas, responseSchemas, schemaUri } from "./components.js"
import { errorResponses } from "./error-responses.js"
import type { ErrorResponse } from "./error-responses.js"
import { operationOf } from "./operation.js"
import type { ComponentNames } from "./operation.js"

const info = {
  title: "Switchboard",
  version: MCP_SERVER_INFO.version,
  description:
    "A sandboxed code-execution service for AI agents: register MCP tool sources, then run short scripts that call their tools. " +
    'Every body is JSON (`content-type: application/json`); every error is `{"error":{"code","message"}}`. ' +
    "Requests sent by a web page at another origin are refused.",
}

const tags = [
  { name: "sources", description: "MCP servers whose tools make up the catalog" },
  { name: "tools", description: "the catalog, and TypeScript declarations to write scripts against" },
  { name: "executions", description: "running scripts and reading what they returned" },
  { name: "mcp", description: "Switchboard as an MCP server (streamable HTTP, stateless)" },
  { name: "keys", description: "API keys and their scopes (admin only)" },
  {
    name: "approvals",
    description:
      "policy rules that let a tool call run, wait for a person's decision, or never run; and the paused calls waiting for one (admin only)",
  },
  { name: "meta" },
]

const apiKey = {
  type: "http",
  scheme: "bearer",
  description:
    "Needed on every route but /healthz and /readyz when the server requires keys, as one reachable beyond loopback does " +
    "(a Node server listening beyond loopback, or run with --require-key). " +
    "An admin key creates others with POST /v1/keys; on a Node host, `switchboard keys create <name> --scope <scope>` makes one (the first one, too). " +
    "Scopes, each including the one before: `read` (the catalog and the key's own executions), `execute` (also run scripts and describe tools), " +
    "`admin` (also add, change, sync and remove sources, manage API keys, and read every execution). " +
    "Each operation lists the scope it needs.",
}

/** Each error answer a route may list, as a named response whose body is the one error shape. */
const responses = Object.fromEntries(
  Object.entries<ErrorResponse>(errorResponses).map(([name, { description, headers }]) => [
    name,
    {
      description,
      content: { "application/json": { schema: { $ref: schemaUri("Error") } } },
      ...(headers ? { headers } : {}),
    },
  ]),
)

const byIdentity = (named: Readonly<Record<string, z.ZodType>>) =>
  new Map(Object.entries(named).map(([name, schema]) => [schema, name]))

/** Each route's operation under its path, hono's `:name` written `{name}`; a hidden route is left out. */
const pathsOf = (names: ComponentNames) => {
  const paths: Record<string, Record<string, ReturnType<typeof operationOf>>> = {}
  for (const spec of allRoutes) {
    if (spec.hidden) continue
    const path = spec.path.replace(/:(\w+)/g, "{$1}")
    paths[path] ??= {}
    paths[path][spec.method] = operationOf(spec, names)
  }
  return paths
}

/** The document for a server whose sources are of these kinds: each kind's fields are part of POST /v1/sources. */
export const openApiDocument = (kinds: readonly SourceKind[] = []) => ({
  openapi: "3.1.0",
  info,
  tags,
  security: [{}, { apiKey: [] }],
  paths: pathsOf({ request: byIdentity(requestSchemas(kinds)), response: byIdentity(responseSchemas) }),
  components: {
    securitySchemes: { apiKey },
    responses,
    schemas: componentSchemas(kinds),
  },
})

export type OpenApiDocument = ReturnType<typeof openApiDocument>
