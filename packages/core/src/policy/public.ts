/** Policy rules: their requests, the effective policy of a tool, and the service that decides. */
export { policyRequest } from "./policy-request.js"
export type { PolicyRequest } from "./policy-request.js"
export type { PolicyService } from "./policy-service.js"
export { effectivePolicy, POLICY_ACTIONS, POLICY_ANNOTATIONS, DEFAULT_ALLOW_REASON } from "./policy.js"
export type { EffectivePolicy } from "./policy.js"
