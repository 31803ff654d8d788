/**
 * The shape of `switchboard.config.json`, in zod, built from the definitions it shares: each source is a
 * `POST /v1/sources` body (core's `addSourceRequest` with the MCP plugin's `mcpSourceConfig`), each policy rule a
 * `POST /v1/policies` body (core's `policyRequest`), `limits` are the RunLimits a request may send (core's
 * `runLimitsRequest`), and `server` and `approvals` hold a few of `serve`'s flags. The JSON
 * Schema editors complete the file with is generated from this (`switchboard config schema`, and `pnpm build`).
 */
import { z } from "zod"
import * as Catalog from "@switchboard/core/catalog"
import * as Policy from "@switchboard/core/policy"
import { addSourceRequest, runLimitsRequest, wholeNumber } from "@switchboard/core"
import { checkPublicUrl } from "@switchboard/api"
import { mcpSourceConfig, mcpSourcePatch } from "@switchboard/plugin-mcp"
import { openApiSourceConfig, openApiSourcePatch } from "@switchboard/plugin-openapi"
// the /node entry, whose index does not load QuickJS: serve reads this file at boot
import { maxStackBytes } from "@switchboard/runtime-quickjs/node"
import { SYNC_TTL_FORM, SYNC_TTL_PATTERN } from "../flags/sync-ttl.js"
import { APPROVAL_TIMEOUT_FORM, APPROVAL_TIMEOUT_PATTERN } from "../flags/approval-flags.js"

/** The kinds of source the Node host's plugins take (layers/plugins.ts): MCP and OpenAPI. */
export const configSource = addSourceRequest([
  { kind: "mcp", configSchema: mcpSourceConfig, patchSchema: mcpSourcePatch.http },
  { kind: "openapi", configSchema: openApiSourceConfig, patchSchema: openApiSourcePatch },
])

export type ConfigSource = z.output<typeof configSource>

/** The serve flags a file may set; a flag given on the command line wins over the file. */
const serverSettings = z
  .strictObject({
    db: z.string().min(1).optional().describe("--db: a SQLite file or a postgres:// URL"),
    host: z.string().min(1).optional().describe("--host (default 127.0.0.1)"),
    port: wholeNumber("server.port", { min: 0, max: 65535 }).optional().describe("--port (default 4747)"),
    allowStdio: z.boolean().optional().describe("--allow-stdio: stdio sources run a command on this host"),
    allowStdioCodeEnv: z
      .boolean()
      .optional()
      .describe(
        "--allow-stdio-code-env: a stdio source's env may set variables that make its command load code (NODE_OPTIONS, LD_PRELOAD, PYTHONPATH, …)",
      ),
    allowPrivateSources: z.boolean().optional().describe("--allow-private-sources"),
    requireKey: z.boolean().optional().describe("--require-key"),
    publicUrl: z
      .string()
      .refine((text) => checkPublicUrl(text).ok, {
        error: "server.publicUrl must be the server's base URL, such as https://switchboard.example.com",
      })
      .optional()
      .describe(
        "--public-url: the base URL people reach this server at behind a proxy; the OAuth callback and the console's links are built from it",
      ),
    syncTtl: z
      .string()
      .regex(SYNC_TTL_PATTERN, { error: `server.syncTtl must be ${SYNC_TTL_FORM}` })
      .optional()
      .describe("--sync-ttl (default 15m)"),
    retain: z
      .string()
      .refine((text) => Catalog.parseRetention({ retain: text }).ok, {
        error: "server.retain must be an age such as 7d, 12h or 90m",
      })
      .optional()
      .describe("--retain: executions that started longer ago are pruned (default: every execution is kept)"),
    retainExecutions: wholeNumber("server.retainExecutions", { min: 1, max: Number.MAX_SAFE_INTEGER })
      .optional()
      .describe("--retain-executions: only the newest this many executions are kept"),
    maxConnectionsPerAddress: wholeNumber("server.maxConnectionsPerAddress", { min: 1, max: Number.MAX_SAFE_INTEGER })
      .optional()
      .describe(
        "--max-connections-per-address: requests in progress from one client address at once (default 100); " +
          "behind a reverse proxy every client has the proxy's address",
      ),
  })
  .describe("settings of `switchboard serve`; a flag given on the command line wins over the file")

/** `--no-approvals` and `--approval-timeout`; a flag wins over the file */
const approvalSettings = z
  .strictObject({
    enabled: z
      .boolean()
      .optional()
      .describe(
        "default true; false (or --no-approvals): approvals are off, for trusted local use: a call that would need one runs, a block rule still blocks",
      ),
    timeout: z
      .string()
      .regex(APPROVAL_TIMEOUT_PATTERN, { error: `approvals.timeout must be ${APPROVAL_TIMEOUT_FORM}` })
      .optional()
      .describe(
        "--approval-timeout: how long a paused call waits for a person before it counts as declined (default 1h)",
      ),
  })
  .describe("approvals: a call that needs a person's decision pauses its execution until one approves or declines it")

const serverLimits = runLimitsRequest
  .refine((limits) => limits.stackBytes === undefined || limits.stackBytes <= maxStackBytes, {
    error: `limit "stackBytes" must be at most ${maxStackBytes}: the QuickJS build's C stack is 5 MiB`,
    path: ["stackBytes"],
  })
  .describe("the server's limits (a request may lower them, never raise them); a limit flag wins over the file")

const uniqueNamespaces = (sources: readonly { namespace: string }[], ctx: z.core.$RefinementCtx) => {
  const seen = new Set<string>()
  sources.forEach((source, index) => {
    if (seen.has(source.namespace))
      ctx.issues.push({
        code: "custom",
        input: source.namespace,
        path: [index, "namespace"],
        message: `namespace "${source.namespace}" is declared twice`,
      })
    seen.add(source.namespace)
  })
}

export const configFile = z
  .strictObject({
    $schema: z.string().optional().describe("where editors find this schema"),
    server: serverSettings.optional(),
    limits: serverLimits.optional(),
    sources: z
      .array(configSource)
      .superRefine(uniqueNamespaces)
      .optional()
      .describe("each exactly a POST /v1/sources body; applied at boot: added, updated, or kept when unchanged"),
    policies: z
      .array(Policy.policyRequest)
      .optional()
      .describe(
        "policy rules, each exactly a POST /v1/policies body; applied at boot, they replace the rules the file made before (rules added through the API stay)",
      ),
    approvals: approvalSettings.optional(),
  })
  .describe(
    "switchboard.config.json: sources, policy rules, limits and serve settings; ${NAME} in a string is read from the environment",
  )

export type ConfigFile = z.output<typeof configFile>

/**
 * zod writes the safe-integer range on every int; it tells an editor nothing. An object with named fields takes
 * no others, as the loader checks (config-file.ts); a record (env, headers) keeps its own rule.
 */
const editorSchema = ({ jsonSchema }: { jsonSchema: Record<string, unknown> }) => {
  if (jsonSchema.maximum === Number.MAX_SAFE_INTEGER) delete jsonSchema.maximum
  if (jsonSchema.minimum === Number.MIN_SAFE_INTEGER) delete jsonSchema.minimum
  if (jsonSchema.properties && jsonSchema.additionalProperties === undefined) jsonSchema.additionalProperties = false
}

/** The file as a JSON Schema (draft 2020-12), as a person writes it (`io: "input"`: defaults may be left out). */
export const configJsonSchema = () =>
  z.toJSONSchema(configFile, { io: "input", unrepresentable: "any", override: editorSchema })
