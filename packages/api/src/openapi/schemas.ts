/**
 * The OpenAPI document's `components`: JSON Schemas (2020-12, as OpenAPI 3.1 uses) of the bodies the routes
 * take and give, and the error answers they share. Limits come from core's own constants.
 */
import {
  DEFAULT_DESCRIBE_LIMIT,
  DEFAULT_INLINE_CAP,
  MAX_DESCRIBE_TOOLS,
  MAX_GREP_MATCHES,
  MAX_PAGE_LINES,
  NAMESPACE_PATTERN,
  RunErrorCodes,
  defaultLimits,
} from "@switchboard/core"

export const schemaRef = (name: keyof typeof schemas) => ({ $ref: `#/components/schemas/${name}` })

const nullable = (type: string) => ({ type: [type, "null"] })
const stringMap = { type: "object", additionalProperties: { type: "string" } }
const count = { type: "integer", minimum: 1 }

const logEntry = {
  type: "object",
  required: ["level", "message"],
  properties: { level: { enum: ["log", "info", "warn", "error", "debug"] }, message: { type: "string" } },
}

export const schemas = {
  Error: {
    type: "object",
    required: ["error"],
    properties: {
      error: {
        type: "object",
        required: ["code", "message"],
        properties: {
          code: { type: "string", description: "stable; the status's codes are listed with each response" },
          message: { type: "string", description: "for a person or a model: says what to change" },
        },
      },
    },
  },

  StdioTransport: {
    type: "object",
    required: ["type", "command"],
    description: "runs a command on the server's host: refused (403) unless the server was started with --allow-stdio",
    properties: {
      type: { const: "stdio" },
      command: { type: "string", minLength: 1 },
      args: { type: "array", items: { type: "string" }, default: [] },
      env: { ...stringMap, description: "secret: values are never echoed" },
      cwd: { type: "string" },
    },
  },
  HttpTransport: {
    type: "object",
    required: ["type", "url"],
    properties: {
      type: { const: "http" },
      url: {
        type: "string",
        format: "uri",
        description: "http or https; echoed with userinfo and query values redacted",
      },
      headers: { ...stringMap, description: "secret: values are never echoed" },
    },
  },
  SourceInput: {
    type: "object",
    required: ["namespace", "kind", "transport"],
    properties: {
      namespace: {
        type: "string",
        pattern: NAMESPACE_PATTERN.source,
        description: "scripts call `tools.<namespace>.<tool>`",
      },
      kind: { const: "mcp" },
      transport: {
        oneOf: [{ $ref: "#/components/schemas/StdioTransport" }, { $ref: "#/components/schemas/HttpTransport" }],
      },
    },
  },
  SourcePatch: {
    type: "object",
    required: ["transport"],
    additionalProperties: false,
    properties: {
      transport: {
        type: "object",
        minProperties: 1,
        additionalProperties: false,
        description: "the fields to replace, each whole: `env` (stdio), `headers` or `url` (http)",
        properties: {
          env: { ...stringMap, description: "secret: replaces every env value; values are never echoed" },
          headers: { ...stringMap, description: "secret: replaces every header; values are never echoed" },
          url: { type: "string", format: "uri", description: "http or https; its query values are secret" },
        },
      },
    },
  },
  Source: {
    type: "object",
    required: ["namespace", "kind", "status", "toolCount", "lastSyncedAt", "syncError", "config"],
    properties: {
      namespace: { type: "string" },
      kind: { type: "string" },
      status: { enum: ["ready", "error"] },
      toolCount: { type: "integer", minimum: 0 },
      lastSyncedAt: { type: ["string", "null"], format: "date-time" },
      syncError: nullable("string"),
      config: { description: 'the source\'s config with every secret value replaced by "<redacted>"' },
    },
  },

  ToolSummary: {
    type: "object",
    required: ["path", "namespace", "name", "description"],
    properties: {
      path: { type: "string", description: "`<namespace>.<name>`" },
      namespace: { type: "string" },
      name: { type: "string" },
      description: nullable("string"),
    },
  },
  Tool: {
    allOf: [
      { $ref: "#/components/schemas/ToolSummary" },
      {
        type: "object",
        required: ["inputSchema", "outputSchema", "resultEncoding", "typescript", "outputSource"],
        properties: {
          inputSchema: { type: "object", description: "the JSON Schema the source declared for the arguments" },
          outputSchema: {
            type: ["object", "null"],
            description: "the JSON Schema the source declared for `r.data`, if any",
          },
          resultEncoding: {
            ...nullable("string"),
            description: "how the tool's results are decoded into `r.data` (null: direct)",
          },
          typescript: { ...nullable("string"), description: "a declaration to paste above a script" },
          outputSource: {
            enum: ["declared", "observed", "unknown", null],
            description: "where the type of `r.data` came from",
          },
        },
      },
    ],
  },
  DescribeRequest: {
    type: "object",
    description:
      "exact `paths`, or a `query` to search (with neither paths nor a non-empty query: the first tools of the catalog)",
    anyOf: [{ required: ["paths"] }, { required: ["query"] }],
    properties: {
      paths: { type: "array", items: { type: "string" }, minItems: 1, maxItems: MAX_DESCRIBE_TOOLS },
      query: { type: "string" },
      limit: {
        ...count,
        description: `with query: how many tools at most (default ${DEFAULT_DESCRIBE_LIMIT}, capped at ${MAX_DESCRIBE_TOOLS})`,
      },
    },
  },
  DescribeResponse: {
    type: "object",
    required: ["typescript", "tools", "missing"],
    properties: {
      typescript: { type: "string", description: "one block declaring every tool, shared declarations once" },
      tools: {
        type: "array",
        items: {
          type: "object",
          required: ["path", "description", "outputSource"],
          properties: {
            path: { type: "string" },
            description: nullable("string"),
            outputSource: { enum: ["declared", "observed", "unknown"] },
          },
        },
      },
      missing: { type: "array", items: { type: "string" }, description: "requested paths with no tool" },
    },
  },

  RunLimits: {
    type: "object",
    additionalProperties: false,
    description: "lowers the server's limits for this run; a value above the server's is capped, never raised",
    properties: Object.fromEntries(
      Object.entries(defaultLimits).map(([key, value]) => [key, { ...count, description: `server default ${value}` }]),
    ),
  },
  ExecuteRequest: {
    type: "object",
    required: ["code"],
    properties: {
      code: {
        type: "string",
        description: "JavaScript or TypeScript: the body of an async function; `return` the result",
      },
      timeoutMs: { ...count, description: "the same as limits.timeoutMs (which wins when both are given)" },
      limits: { $ref: "#/components/schemas/RunLimits" },
    },
  },
  LogEntry: logEntry,
  ExecuteSuccess: {
    type: "object",
    required: ["stored", "ok", "result", "text", "logs"],
    properties: {
      executionId: { type: "string", description: "present exactly when `stored` is true" },
      stored: {
        type: "boolean",
        description:
          "whether the execution's record was stored; only then is `executionId` given and can it be read back",
      },
      warning: {
        type: "string",
        description:
          "present when `stored` is false: why the record could not be stored (the database's error, and a correlation id for the server log)",
      },

      ok: { const: true },
      result: { description: "what the script returned, as JSON" },
      text: {
        type: "string",
        description: `the result for a model: a string as its own text, anything else as JSON; past ${DEFAULT_INLINE_CAP} characters, the first lines and a line saying how to read the rest (or, when \`stored\` is false, that the rest could not be kept)`,
      },
      truncated: {
        type: "object",
        required: ["totalLines", "totalChars"],
        description:
          "present when text was cut; read the rest at GET /v1/executions/{id}/output (when `stored` is true)",
        properties: { totalLines: { type: "integer" }, totalChars: { type: "integer" } },
      },
      media: {
        type: "array",
        items: { type: "object" },
        description: "image and audio content blocks the script returned or emitted",
      },
      logs: { type: "array", items: logEntry },
    },
  },
  ExecuteFailure: {
    type: "object",
    required: ["stored", "ok", "error", "logs"],
    properties: {
      executionId: { type: "string", description: "present exactly when `stored` is true" },
      stored: {
        type: "boolean",
        description:
          "whether the execution's record was stored; only then is `executionId` given and can it be read back",
      },
      warning: {
        type: "string",
        description:
          "present when `stored` is false: why the record could not be stored (the database's error, and a correlation id for the server log)",
      },

      ok: { const: false },
      error: {
        type: "object",
        required: ["code", "message"],
        properties: {
          code: {
            enum: Object.values(RunErrorCodes).filter((code) => code !== RunErrorCodes.overloaded),
            description: "each limit has its own code",
          },
          message: { type: "string" },
          line: { type: "integer", description: "1-based, in the script as written" },
          column: { type: "integer" },
        },
      },
      logs: { type: "array", items: logEntry },
    },
  },

  ToolCall: {
    type: "object",
    required: ["executionId", "toolPath", "encoding", "startedAt", "durationMs", "ok", "errorCode", "dataBytes"],
    properties: {
      executionId: { type: "string" },
      toolPath: { type: "string" },
      encoding: { type: "string" },
      startedAt: { type: "integer", description: "milliseconds since the epoch" },
      durationMs: { type: "integer" },
      ok: { type: "boolean" },
      errorCode: nullable("string"),
      dataBytes: nullable("integer"),
      outputSchemaError: {
        ...nullable("string"),
        description: "set when the data did not match the declared output schema (it was delivered anyway)",
      },
    },
  },
  Execution: {
    type: "object",
    required: [
      "id",
      "code",
      "status",
      "startedAt",
      "durationMs",
      "resultText",
      "errorCode",
      "errorMessage",
      "logs",
      "toolCallCount",
      "keyId",
      "calls",
    ],
    properties: {
      id: { type: "string" },
      code: { type: "string" },
      status: { enum: ["ok", "error"] },
      startedAt: { type: "integer", description: "milliseconds since the epoch" },
      durationMs: { type: "integer" },
      resultText: { ...nullable("string"), description: "the whole result text, never cut" },
      errorCode: nullable("string"),
      errorMessage: nullable("string"),
      logs: { type: "array", items: logEntry },
      toolCallCount: { type: "integer" },
      keyId: {
        ...nullable("string"),
        description:
          "the id of the API key that made it (`switchboard keys list`); null when made without a key. A key without `admin` reads only its own.",
      },
      calls: { type: "array", items: { $ref: "#/components/schemas/ToolCall" } },
    },
  },
  OutputPage: {
    type: "object",
    required: ["executionId", "offset", "charOffset", "lines", "totalLines", "nextOffset"],
    properties: {
      executionId: { type: "string" },
      offset: { type: "integer", description: "0-based line of lines[0]" },
      charOffset: {
        type: "integer",
        description: "where in that line lines[0] starts (0 unless a long line is read in pieces)",
      },
      lines: { type: "array", items: { type: "string" }, maxItems: MAX_PAGE_LINES },
      totalLines: { type: "integer" },
      nextOffset: { ...nullable("integer"), description: "where the next page starts; null at the end" },
      nextCharOffset: {
        type: "integer",
        description:
          "present when the page ends inside a line longer than 4,000 characters: pass it as charOffset with offset=nextOffset",
      },
    },
  },
  OutputMatches: {
    type: "object",
    required: ["executionId", "matches", "totalLines", "truncated"],
    properties: {
      executionId: { type: "string" },
      matches: {
        type: "array",
        maxItems: MAX_GREP_MATCHES,
        items: {
          type: "object",
          required: ["line", "text"],
          properties: { line: { type: "integer", description: "0-based" }, text: { type: "string" } },
        },
      },
      totalLines: { type: "integer" },
      truncated: { type: "boolean", description: `true when the search stopped at ${MAX_GREP_MATCHES} matches` },
    },
  },

  JsonRpcMessage: {
    type: "object",
    required: ["jsonrpc"],
    description: "an MCP JSON-RPC 2.0 message (https://modelcontextprotocol.io/specification)",
    properties: {
      jsonrpc: { const: "2.0" },
      id: { type: ["string", "integer", "null"] },
      method: { type: "string" },
      params: { type: "object" },
      result: {},
      error: { type: "object" },
    },
  },
}
