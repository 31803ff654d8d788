/** Deciding paused calls: the decision request, waiting for one, and the service. */
export { decisionRequest, parseWait, WAIT_MAX_MS } from "./approvals-service.js"
export type { ApprovalsService, ApprovalWait, DecisionRequest } from "./approvals-service.js"
