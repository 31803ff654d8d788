/** API keys, their scopes, the admin key, and reading executions as a caller may. */
export { ADMIN_KEY_ENV, ADMIN_KEY_NAME, adminKeyProblem, storeAdminKey } from "./admin-key.js"
export { MAX_API_KEY_LENGTH, createApiKeyService, hashKey } from "./api-keys.js"
export type { ApiKeyService } from "./api-keys.js"
export {
  SCOPES,
  SCOPE_DESCRIPTIONS,
  OPEN_CALLER,
  effectiveScope,
  callerOf,
  hasScope,
  missingScopeMessage,
  readExecutionAs,
  readResultAs,
  listExecutionsPage,
  DEFAULT_LIST_EXECUTIONS,
  MAX_LIST_EXECUTIONS,
  parseScopes,
} from "./scopes.js"
export type { Scope, Caller } from "./scopes.js"
export type { ApiKeyRow } from "../catalog/rows.js"
