/** The app's hono environment: who is asking, set by `authenticate` (./require-key.ts) before any route runs. */
import type { Caller } from "@switchboard/core"

export interface AppEnv {
  Variables: { caller: Caller }
}
