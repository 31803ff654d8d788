/**
 * The OpenAPI document's schemas: every body a route takes or gives, by name, as JSON Schema generated from its
 * one zod definition. Requests are core's (`executeRequest`, `describeRequest`, the source fields with each
 * kind's own); answers are ../wire's, which the routes' `satisfies` checks tie to what they send. Requests are
 * described as a client may send them; answers as the server sends them, with no field left undocumented.
 */
import type { z } from "zod"
import * as Policy from "@switchboard/core/policy"
import * as Approvals from "@switchboard/core/approvals"
import {
  addSourceRequest,
  describeRequest,
  executeRequest,
  runLimitsRequest,
  updateSourceRequest,
} from "@switchboard/core"
import type { SourceKind } from "@switchboard/core"
import { approvalView } from "../wire/approval-schema.js"
import { approvalBody, approvalsBody, executePaused, policiesBody, policyBody, policyView } from "../wire/approvals.js"
import { errorBody } from "../wire/error-body.js"
import { executeBody, executeFailure, executeSuccess, logEntry } from "../wire/execute.js"
import {
  execution,
  executionBody,
  executionSummary,
  executionsBody,
  outputMatches,
  outputPage,
  toolCall,
} from "../wire/executions.js"
import { jsonRpcMessage, jsonRpcRequest } from "../wire/json-rpc.js"
import { createKeyRequest, keyCreatedBody, keyView, keysBody } from "../wire/keys.js"
import { jsonSchemasOf } from "../wire/json-schema.js"
import { healthBody, notReadyBody, readyBody } from "../wire/probes.js"
import { sourceBody, sourcePatchBody, sourceView, sourcesBody } from "../wire/sources.js"
import { describeBody, toolAnnotations, toolBody, toolDetail, toolSummary, toolsBody } from "../wire/tools.js"

export const requestSchemas = (kinds: readonly SourceKind[]) => ({
  ExecuteRequest: executeRequest,
  RunLimits: runLimitsRequest,
  DescribeRequest: describeRequest,
  SourceInput: addSourceRequest(kinds).describe("the fields every source has, and its kind's own"),
  SourcePatch: updateSourceRequest(kinds),
  JsonRpcRequest: jsonRpcRequest,
  CreateKeyRequest: createKeyRequest,
  PolicyRequest: Policy.policyRequest,
  DecisionRequest: Approvals.decisionRequest,
})

export const responseSchemas = {
  Error: errorBody,
  Health: healthBody,
  Ready: readyBody,
  NotReady: notReadyBody,
  Source: sourceView,
  SourceBody: sourceBody,
  SourcePatchBody: sourcePatchBody,
  SourcesBody: sourcesBody,
  ToolSummary: toolSummary,
  ToolsBody: toolsBody,
  Tool: toolDetail,
  ToolAnnotations: toolAnnotations,
  ToolBody: toolBody,
  DescribeResponse: describeBody,
  LogEntry: logEntry,
  ExecuteSuccess: executeSuccess,
  ExecuteFailure: executeFailure,
  ExecuteResponse: executeBody,
  ExecutePaused: executePaused,
  ToolCall: toolCall,
  Execution: execution,
  ExecutionBody: executionBody,
  ExecutionSummary: executionSummary,
  ExecutionsBody: executionsBody,
  OutputPage: outputPage,
  OutputMatches: outputMatches,
  JsonRpcMessage: jsonRpcMessage,
  Key: keyView,
  KeyCreated: keyCreatedBody,
  KeysBody: keysBody,
  Policy: policyView,
  PolicyBody: policyBody,
  PoliciesBody: policiesBody,
  Approval: approvalView,
  ApprovalBody: approvalBody,
  ApprovalsBody: approvalsBody,
}

export type RequestSchemaName = keyof ReturnType<typeof requestSchemas>
export type ResponseSchemaName = keyof typeof responseSchemas
export type SchemaName = RequestSchemaName | ResponseSchemaName

export const schemaUri = (name: string) => `#/components/schemas/${name}`

export const componentSchemas = (kinds: readonly SourceKind[]) => ({
  ...jsonSchemasOf(requestSchemas(kinds) as Record<RequestSchemaName, z.ZodType>, "input", schemaUri),
  ...jsonSchemasOf(responseSchemas, "output", schemaUri),
})
