/** The executor and the answers it gives: ended or paused. */
export { createExecutor } from "./executor.js"
export type { Executor } from "./executor.js"
export { isPausedResponse } from "./response.js"
export type { ApprovalSummary, EndedResponse, ExecuteResponse, PausedResponse } from "./response.js"
