/**
 * The OpenAPI 3.1 description of the HTTP API, served at GET /v1/openapi.json. The operations and their prose
 * are written here, next to the routes they describe; every body and query parameter is generated from its one
 * zod definition (./components.ts). test/openapi.test.ts checks that every route the app registers is here and
 * nothing else; apps/server/test/openapi-conformance.test.ts checks real requests and answers against it.
 */
import type { z } from "zod"
import type { SourceKind } from "@switchboard/core"
import { DEFAULT_MAX_BODY_BYTES, bytesText } from "../body-limit.js"
import { DEFAULT_MAX_DOWNLOADS_PER_KEY } from "../download-slots.js"
import { MCP_SERVER_INFO } from "../mcp/server-info.js"
import { READY_TIMEOUT_MS } from "../probes.js"
import { requiredScope } from "../scopes.js"
import { approvalsQuery, decideQuery } from "../wire/approvals.js"
import { executionsQuery, outputQuery } from "../wire/executions.js"
import { jsonSchemaOf } from "../wire/json-schema.js"
import { toolsQuery } from "../wire/tools.js"
import { componentSchemas, schemaUri } from "./components.js"
import type { RequestSchemaName, ResponseSchemaName } from "./components.js"

const schemaRef = (name: RequestSchemaName | ResponseSchemaName) => ({ $ref: schemaUri(name) })
const json = (name: ResponseSchemaName, description: string) => ({
  description,
  content: { "application/json": { schema: schemaRef(name) } },
})
const errorJson = (description: string) => json("Error", description)
const response = (name: keyof typeof responses) => ({ $ref: `#/components/responses/${name}` })
const body = (name: RequestSchemaName) => ({
  required: true,
  content: { "application/json": { schema: schemaRef(name) } },
})
const pathParam = (name: string, description: string) => ({
  name,
  in: "path",
  required: true,
  description,
  schema: { type: "string" },
})

/** Each field of a query schema as a query parameter, its description lifted to the parameter. */
const queryParams = (schema: z.ZodObject) => {
  const { properties = {}, required = [] } = jsonSchemaOf(schema, "input") as {
    properties?: Record<string, { description?: string }>
    required?: string[]
  }
  return Object.entries(properties).map(([name, { description, ...parameter }]) => ({
    name,
    in: "query",
    required: required.includes(name),
    description,
    schema: parameter,
  }))
}

const responses = {
  BadRequest: errorJson(
    "`invalid_json`: the body is not JSON; `invalid_request`: a field or parameter is missing or wrong (the message says which)",
  ),
  Unauthorized: {
    ...errorJson(
      "`unauthorized`: this server requires an API key, and none or a wrong (unknown or revoked) one was sent",
    ),
    headers: { "WWW-Authenticate": { schema: { type: "string" } } },
  },
  Forbidden: errorJson(
    "`forbidden_origin`: sent by a web page at another origin; `forbidden_host`: a Host header this server does not answer to (DNS rebinding); " +
      '`forbidden`: the API key lacks the scope this route needs (the message names it: `this route needs the "admin" scope; this key has: execute`), ' +
      "or /v1/keys on a server that checks no key; " +
      "`source_disabled`: a stdio source on a host that does not allow them (a Node server started without --allow-stdio, or a Cloudflare Worker) when adding or syncing it; " +
      "`code_loading_env`: a stdio source whose env sets a variable that makes its command load code (NODE_OPTIONS, LD_PRELOAD, " +
      "PYTHONPATH, …) on a server started without --allow-stdio-code-env; " +
      "`private_address`: an http source whose address is loopback, private, link-local or metadata, on a server that listens beyond loopback without --allow-private-sources",
  ),
  NotFound: errorJson(
    "`not_found`: no such source, tool, execution or key (another key's execution, for a key without `admin`, is answered the same)",
  ),
  Conflict: errorJson("`conflict`: a source with this namespace already exists"),
  ApprovalConflict: errorJson(
    "`conflict`: the approval was decided already, or it has expired (which counts as a decline; the server resumes the run with the call declined)",
  ),
  PayloadTooLarge: errorJson(
    `\`body_too_large\`: the body is over the server's limit (default ${bytesText(DEFAULT_MAX_BODY_BYTES)})`,
  ),
  UnsupportedMediaType: errorJson(
    "`unsupported_media_type`: a body, or a declared content type, that is not `application/json`",
  ),
  Overloaded: {
    ...errorJson("`overloaded`: every sandbox is busy and the queue is full"),
    headers: { "Retry-After": { description: "seconds", schema: { type: "integer" } } },
  },
  OutputBusy: {
    ...errorJson(
      `\`too_many_downloads\`: the key already has the server's limit of downloads of whole texts in progress (default ${DEFAULT_MAX_DOWNLOADS_PER_KEY}; a server without keys counts every caller as one); \`overloaded\`: too many searches are waiting`,
    ),
    headers: { "Retry-After": { description: "seconds", schema: { type: "integer" } } },
  },
  Internal: errorJson("`internal_error`: a defect of the server; the message holds a correlation id for its log"),
  DatabaseUnavailable: errorJson(
    "`database_unavailable`: the catalog database cannot be used, for a reason that is no defect: locked by another connection past the wait, or its SQLite file deleted or replaced while the server had it open; the message says which (as /readyz does)",
  ),
  UpstreamFailed: errorJson(
    "`upstream_failed`: the source's MCP server could not be reached or failed to list its tools; `upstream_error`: it was reached and broke a bound of what it may send (a stdio server flooding stdout, or an http server answering past the message bound)",
  ),
  SecretsUnreadable: errorJson(
    "`source_secrets_unreadable`: the source's stored secrets do not decrypt with this server's key (they were encrypted with another); the message names them. Send new values with PATCH, or restore the key",
  ),
}

/** What every route but /healthz and /readyz may answer, from the key check and the request guard. */
const guarded = {
  "401": response("Unauthorized"),
  "403": response("Forbidden"),
  "500": response("Internal"),
  "503": response("DatabaseUnavailable"),
}
/** And what a route that takes a JSON body may answer besides. */
const withBody = {
  ...guarded,
  "400": response("BadRequest"),
  "413": response("PayloadTooLarge"),
  "415": response("UnsupportedMediaType"),
}
/** A POST or DELETE without a body still meets the content-type check when it names a content type. */
const noBody = { ...guarded, "415": response("UnsupportedMediaType") }

/** What every /v1/keys operation says of where it is served. */
const keysDescription =
  "Only on a server that requires keys; one that does not (a Node server on loopback without --require-key, where every caller is admin) " +
  "answers 403 `forbidden`, since a key made there would not be checked there. Needs `admin`: a key that could make keys could make itself admin."

/** What every /v1/policies and /v1/approvals operation says of who may call it. */
const approvalsScope =
  "Needs `admin`: an agent's `execute` key must never decide its own calls (over MCP, a client that supports elicitation asks its person instead)."

const namespaceParam = pathParam("namespace", "the source's namespace")
const executionParam = pathParam("id", "the execution id, as `executionId` in the execute response")
const mcpNotAllowed = {
  tags: ["mcp"],
  summary: "Not served: the endpoint is stateless (no standalone stream, no session to end)",
  responses: {
    "405": {
      ...json("JsonRpcMessage", "a JSON-RPC error; send each message with POST"),
      headers: { Allow: { schema: { const: "POST" } } },
    },
    "401": response("Unauthorized"),
    "403": response("Forbidden"),
  },
}

/**
 * Each operation's `security`, from the route table (../scopes.ts): no key at all on a loopback server without
 * keys, else a key with the scope the table names (OpenAPI 3.1 lets a bearer scheme list role names).
 */
const withScopes = <P extends Record<string, Record<string, object>>>(paths: P): P =>
  Object.fromEntries(
    Object.entries(paths).map(([path, item]) => [
      path,
      Object.fromEntries(
        Object.entries(item).map(([method, operation]) => {
          if ("security" in operation) return [method, operation]
          const scope = requiredScope(method, path.replace(/\{(\w+)\}/g, "x"))
          return [method, { ...operation, security: [{}, { apiKey: scope === null ? [] : [scope] }] }]
        }),
      ),
    ]),
  ) as P

/** The document for a server whose sources are of these kinds: each kind's fields are part of POST /v1/sources. */
export const openApiDocument = (kinds: readonly SourceKind[] = []) => ({
  openapi: "3.1.0",
  info: {
    title: "Switchboard",
    version: MCP_SERVER_INFO.version,
    description:
      "A sandboxed code-execution service for AI agents: register MCP tool sources, then run short scripts that call their tools. " +
      'Every body is JSON (`content-type: application/json`); every error is `{"error":{"code","message"}}`. ' +
      "Requests sent by a web page at another origin are refused.",
  },
  tags: [
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
  ],
  security: [{}, { apiKey: [] }],
  paths: withScopes({
    "/healthz": {
      get: {
        tags: ["meta"],
        operationId: "health",
        summary: "Liveness; never needs a key",
        security: [],
        responses: {
          "200": json("Health", "the server is up"),
        },
      },
    },
    "/readyz": {
      get: {
        tags: ["meta"],
        operationId: "ready",
        summary: `Readiness; never needs a key. Reads the catalog and commits a write that changes nothing, within ${READY_TIMEOUT_MS} ms`,
        security: [],
        responses: {
          "200": json("Ready", "the catalog can be read and written"),
          "503": json(
            "NotReady",
            "it cannot; `reason` is the database's own error: a SQLite file locked, unwritable, deleted or replaced, a Postgres that refuses or does not answer",
          ),
        },
      },
    },
    "/v1/openapi.json": {
      get: {
        tags: ["meta"],
        operationId: "openApi",
        summary: "This document",
        responses: {
          "200": {
            description: "an OpenAPI 3.1 document",
            content: { "application/json": { schema: { type: "object" } } },
          },
          ...guarded,
        },
      },
    },
    "/v1/sources": {
      post: {
        tags: ["sources"],
        operationId: "addSource",
        summary: "Add a source and sync its tools at once; a source that cannot be reached is not kept",
        requestBody: body("SourceInput"),
        responses: {
          "201": json("SourceBody", "added"),
          ...withBody,
          "409": response("Conflict"),
          "502": response("UpstreamFailed"),
        },
      },
      get: {
        tags: ["sources"],
        operationId: "listSources",
        summary: "Every source",
        responses: {
          "200": json("SourcesBody", "the sources"),
          ...guarded,
        },
      },
    },
    "/v1/sources/{namespace}/sync": {
      post: {
        tags: ["sources"],
        operationId: "syncSource",
        summary: "Re-sync a source's tools now",
        parameters: [namespaceParam],
        responses: {
          "200": json("SourceBody", "synced"),
          ...noBody,
          "404": response("NotFound"),
          "409": response("SecretsUnreadable"),
          "502": response("UpstreamFailed"),
        },
      },
    },
    "/v1/sources/{namespace}": {
      patch: {
        tags: ["sources"],
        operationId: "updateSource",
        summary: "Replace a source's secrets (a key rotation without delete and re-add), then re-sync it",
        description:
          "Each field given replaces the stored one whole (a map is not merged): `transport.env` or `transport.args` of a stdio source; " +
          "`transport.headers` or `transport.url` of an http source. " +
          "A `transport.url` at another origin drops the stored headers, and new `transport.args` drop the stored env, unless the same PATCH " +
          "sends them again: a secret nobody can read is never sent to a destination of the caller's choosing. The answer's `dropped` names them. " +
          "The result is checked as an added source is, and tried before it is stored: a refusal (403 `source_disabled`, `code_loading_env`, " +
          "`private_address`) changes nothing. A re-sync that fails keeps the new config and is reported in the answer's `syncError`.",
        parameters: [namespaceParam],
        requestBody: body("SourcePatch"),
        responses: {
          "200": json("SourcePatchBody", "replaced and re-synced (see `status` and `syncError`), and what was dropped"),
          ...withBody,
          "404": response("NotFound"),
          "409": response("SecretsUnreadable"),
        },
      },
      delete: {
        tags: ["sources"],
        operationId: "removeSource",
        summary: "Remove a source; its tools go with it",
        parameters: [namespaceParam],
        responses: { "204": { description: "removed" }, ...noBody, "404": response("NotFound") },
      },
    },
    "/v1/tools": {
      get: {
        tags: ["tools"],
        operationId: "listTools",
        summary: "List the catalog's tools, or search them",
        parameters: queryParams(toolsQuery),
        responses: {
          "200": json("ToolsBody", "the tools"),
          ...guarded,
          "400": response("BadRequest"),
        },
      },
    },
    "/v1/tools/{path}": {
      get: {
        tags: ["tools"],
        operationId: "getTool",
        summary: "One tool: its schemas and a TypeScript declaration",
        parameters: [pathParam("path", "`<namespace>.<name>`, such as `github.search_issues`")],
        responses: {
          "200": json("ToolBody", "the tool"),
          ...guarded,
          "404": response("NotFound"),
        },
      },
    },
    "/v1/describe": {
      post: {
        tags: ["tools"],
        operationId: "describeTools",
        summary: "TypeScript declarations for several tools in one block",
        requestBody: body("DescribeRequest"),
        responses: { "200": json("DescribeResponse", "the declarations"), ...withBody },
      },
    },
    "/v1/execute": {
      post: {
        tags: ["executions"],
        operationId: "execute",
        summary: "Run a script in the sandbox",
        description:
          "A script that fails is still a 200: `ok` is false and `error.code` names the cause (each limit has its own code). " +
          "A script that reaches a call a policy says needs a person's approval pauses there, durably: 202, naming the approval; " +
          "nothing failed and nothing ended, so that answer has no `ok` and no `error`: its `status` is `paused`. " +
          "Once a person decides it (POST /v1/approvals/{id}), the run resumes and GET /v1/executions/{id} gives its end.",
        requestBody: body("ExecuteRequest"),
        responses: {
          "200": json("ExecuteResponse", "the run's outcome"),
          "202": json("ExecutePaused", "paused before a call that needs a person's approval"),
          ...withBody,
          "429": response("Overloaded"),
        },
      },
    },
    "/v1/executions": {
      get: {
        tags: ["executions"],
        operationId: "listExecutions",
        summary: "The executions this key may read, newest first",
        description:
          "A key without `admin` lists its own executions; `admin` (and every caller of a server without keys) lists every one. " +
          "Each is summed up without its texts: `resultChars` and `codePreview` stand for the result and the code (read them with GET /v1/executions/{id}). " +
          "A full page names `nextBefore`: pass it as `before` for the next page.",
        parameters: queryParams(executionsQuery),
        responses: {
          "200": json("ExecutionsBody", "a page of executions"),
          ...guarded,
          "400": response("BadRequest"),
        },
      },
    },
    "/v1/executions/{id}": {
      get: {
        tags: ["executions"],
        operationId: "getExecution",
        summary: "A stored execution with its tool calls",
        description:
          "A paused execution (`status` `paused`) comes with the approval it waits for; its resume overwrites the record with the run's end.",
        parameters: [executionParam],
        responses: {
          "200": json("ExecutionBody", "the execution"),
          ...guarded,
          "404": response("NotFound"),
        },
      },
    },
    "/v1/executions/{id}/output": {
      get: {
        tags: ["executions"],
        operationId: "getExecutionOutput",
        summary: "An execution's whole stored result text",
        description:
          "With no parameter, the text byte for byte as stored, sent as the client reads it (a key may have a few such downloads in progress at once). With `offset`, `limit` or `charOffset`, a page of lines (a line over 4,000 characters is read in pieces: the page ends inside it and names `nextCharOffset`); with `grep`, the matching lines (a long line shown around its match). Line numbers are 0-based.",
        parameters: [executionParam, ...queryParams(outputQuery)],
        responses: {
          "200": {
            description: "the text, a page of it, or its matching lines",
            content: {
              "text/plain": { schema: { type: "string" } },
              "application/json": { schema: { oneOf: [schemaRef("OutputPage"), schemaRef("OutputMatches")] } },
            },
          },
          ...guarded,
          "400": response("BadRequest"),
          "404": { ...response("NotFound"), description: "no such execution, or it failed and stored no output" },
          "429": response("OutputBusy"),
        },
      },
    },
    "/v1/keys": {
      post: {
        tags: ["keys"],
        operationId: "createKey",
        summary: "Create an API key; its secret is in this answer and never again",
        description: keysDescription,
        requestBody: body("CreateKeyRequest"),
        responses: { "201": json("KeyCreated", "created"), ...withBody },
      },
      get: {
        tags: ["keys"],
        operationId: "listKeys",
        summary: "Every API key, revoked ones too, oldest first (never a secret or a hash)",
        description: keysDescription,
        responses: { "200": json("KeysBody", "the keys"), ...guarded },
      },
    },
    "/v1/keys/{id}": {
      delete: {
        tags: ["keys"],
        operationId: "revokeKey",
        summary: "Revoke an API key: from now on it is answered 401",
        description:
          `${keysDescription} Revoking a revoked key is no error: 204 again, and the key keeps its first revocation's time. ` +
          "Revoking the key that sends the request is allowed; keep another admin key.",
        parameters: [pathParam("id", "the key's `id`, as created or listed")],
        responses: { "204": { description: "revoked (or already revoked)" }, ...noBody, "404": response("NotFound") },
      },
    },
    "/v1/policies": {
      get: {
        tags: ["approvals"],
        operationId: "listPolicies",
        summary: "The policy rules, whether approvals are on, and what applies where no rule matches",
        description:
          "A call takes the action of the most specific rule that matches it; with none, a tool that declares `destructiveHint: true` needs approval and every other is allowed. " +
          approvalsScope,
        responses: { "200": json("PoliciesBody", "the rules"), ...guarded },
      },
      post: {
        tags: ["approvals"],
        operationId: "addPolicy",
        summary: "Add a rule: the calls it matches are allowed, wait for a person's approval, or never run",
        description: `A \`block\`ed call resolves to \`ok: false\` with code \`blocked\` and never reaches its source. ${approvalsScope}`,
        requestBody: body("PolicyRequest"),
        responses: { "201": json("PolicyBody", "added"), ...withBody },
      },
    },
    "/v1/policies/{id}": {
      delete: {
        tags: ["approvals"],
        operationId: "removePolicy",
        summary: "Remove a rule",
        description: `A rule from the config file comes back when the config is applied again. ${approvalsScope}`,
        parameters: [pathParam("id", "the rule's `id`, as added or listed")],
        responses: { "204": { description: "removed" }, ...noBody, "404": response("NotFound") },
      },
    },
    "/v1/approvals": {
      get: {
        tags: ["approvals"],
        operationId: "listApprovals",
        summary: "Paused calls, newest first: those waiting for a decision unless `status` says otherwise",
        description: approvalsScope,
        parameters: queryParams(approvalsQuery),
        responses: { "200": json("ApprovalsBody", "the approvals"), ...guarded, "400": response("BadRequest") },
      },
    },
    "/v1/approvals/{id}": {
      get: {
        tags: ["approvals"],
        operationId: "getApproval",
        summary: "One approval: the call, its arguments as the script passed them, and its decision",
        description: approvalsScope,
        parameters: [pathParam("id", "the approval's `id`, as in the paused execute answer or a listing")],
        responses: { "200": json("ApprovalBody", "the approval"), ...guarded, "404": response("NotFound") },
      },
      post: {
        tags: ["approvals"],
        operationId: "decideApproval",
        summary: "Approve or decline a paused call; the run resumes at once",
        description:
          "approve: the call runs and the script goes on; decline: the call resolves to `ok: false` with code `declined` and the note, and the script goes on. " +
          "The run resumes by replay: its earlier tool calls answer from their record, without calling their sources again. " +
          `With \`wait\`, the answer comes once the resumed run was recorded (ended, or paused again), with the execution. ${approvalsScope}`,
        parameters: [
          pathParam("id", "the approval's `id`, as in the paused execute answer or a listing"),
          ...queryParams(decideQuery),
        ],
        requestBody: body("DecisionRequest"),
        responses: {
          "200": json("ApprovalBody", "decided (and, with `wait`, what the resumed run came to)"),
          ...withBody,
          "404": response("NotFound"),
          "409": response("ApprovalConflict"),
        },
      },
    },
    "/mcp": {
      post: {
        tags: ["mcp"],
        operationId: "mcp",
        summary: "One MCP JSON-RPC message, answered with a JSON response and no session id",
        description:
          "The tools are execute, resume, describe, read_output and grep_output. Send `accept: application/json, text/event-stream`. " +
          "Stateless, the endpoint cannot ask the client anything (no elicitation): an execute that pauses for an approval answers the paused text, and `resume` gives the result once a person decided. " +
          "Any live key may connect; `execute`, `resume` and `describe` need the `execute` scope, `read_output` and `grep_output` the `read` scope and only the key's own executions (unless `admin`). " +
          "tools/list shows a key only the tools it may call; calling another gives an error result naming the scope.",
        requestBody: body("JsonRpcRequest"),
        responses: {
          "200": json("JsonRpcMessage", "the JSON-RPC response"),
          "202": { description: "a notification or response was accepted; nothing to answer" },
          "400": json("JsonRpcMessage", "not a JSON-RPC message (a JSON-RPC error)"),
          "406": json(
            "JsonRpcMessage",
            "the accept header lacks application/json or text/event-stream (a JSON-RPC error)",
          ),
          "401": response("Unauthorized"),
          "403": response("Forbidden"),
          "413": response("PayloadTooLarge"),
          "415": response("UnsupportedMediaType"),
        },
      },
      get: { ...mcpNotAllowed, operationId: "mcpGet" },
      delete: { ...mcpNotAllowed, operationId: "mcpDelete" },
    },
  }),
  components: {
    securitySchemes: {
      apiKey: {
        type: "http",
        scheme: "bearer",
        description:
          "Needed on every route but /healthz and /readyz when the server requires keys, as one reachable beyond loopback does (a Node server listening beyond loopback, or run with --require-key). " +
          "An admin key creates others with POST /v1/keys; on a Node host, `switchboard keys create <name> --scope <scope>` makes one (the first one, too). " +
          "Scopes, each including the one before: `read` (the catalog and the key's own executions), `execute` (also run scripts and describe tools), `admin` (also add, change, sync and remove sources, manage API keys, and read every execution). " +
          "Each operation lists the scope it needs.",
      },
    },
    responses,
    schemas: componentSchemas(kinds),
  },
})

export type OpenApiDocument = ReturnType<typeof openApiDocument>
