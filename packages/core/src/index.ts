/**
 * @switchboard/core — the domain: result contract, encodings, catalog, executor, rendering.
 * Web-standard APIs only: it runs unchanged on Node 20 and on Cloudflare Workers. It imports no plugin,
 * runtime or host; those implement the seams declared in ./seams.ts.
 */
export type { CatalogStore } from "./catalog/rows.js"
export { DatabaseFault, isDatabaseFault, driverMessage } from "./database-fault.js"
export { decodeToolResult, parseExactJson } from "./encodings/decode.js"
export { ResultEncodings } from "./encodings/encoding.js"
export {
  InvalidInput,
  NotFound,
  Forbidden,
  Overloaded,
  isServiceError,
  failure,
  silentLogger,
  internalError,
} from "./errors.js"
export type { ServiceError, Outcome, Logger } from "./errors.js"
export { closestNames } from "./executor/suggest.js"
export { timeOrderedId } from "./ids.js"
export { classifyAddress, ipLiteral } from "./egress/address-class.js"
export type { AddressClass } from "./egress/address-class.js"
export { SourceRefusal, findRefusal } from "./egress/source-refusal.js"
export { isRecord, own } from "./is-record.js"
export { countJsonNodes, createJsonScan } from "./json-scan.js"
export { defaultLimits, minimumLimits } from "./limits.js"
export {
  addSourceRequest,
  describeRequest,
  executeRequest,
  parseRequest,
  runLimitsRequest,
  sourceFields,
  updateSourceRequest,
  wholeNumber,
} from "./request-schemas.js"
export type { ExecuteRequest, SourceKind } from "./request-schemas.js"
export { ToolErrorCodes } from "./result.js"
export type { ContentBlock, ToolResult } from "./result.js"
export { RunErrorCodes, MAX_CLOCK_READS, SourceRefusalCodes, noopMetrics } from "./seams.js"
export type {
  RunError,
  RunOutcome,
  RunLimits,
  LogEntry,
  InvokeTool,
  RunDeterminism,
  RunOptions,
  CodeRuntime,
  DiscoveredTool,
  Discovery,
  DiscoveryProgress,
  ConfigViewer,
  SourceHandle,
  InvokeContext,
  RawInvokeResult,
  SourceRefusalCode,
  SourcePlugin,
  AuthFailureCode,
  OAuthSource,
  OAuthEndpoints,
  CredentialSubject,
  SourceCredentials,
  ToolCallRecord,
  ExecutionRecord,
  ExecutionEntry,
  MetricsSink,
} from "./seams.js"
export * as Services from "./services/index.js"
