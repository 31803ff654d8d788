/**
 * The app's hono environment: who is asking, set by `authenticate` (./require-key.ts) before any route runs; and,
 * for the request log (./request-log.ts), the execution a route ran or read and the code of an error answer.
 */
import type * as Auth from "@switchboard/core/auth"

export interface AppEnv {
  Variables: { caller: Auth.Caller; executionId: string | undefined; errorCode: string | undefined }
}
