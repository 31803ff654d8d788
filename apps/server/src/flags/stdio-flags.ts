/**
 * The flags that let a command start stdio sources (`serve`, `demo`, `mcp`, `run`, and the catalog commands on a
 * local database): `--allow-stdio`, and `--allow-stdio-code-env` for a source whose env makes its command load
 * code (NODE_OPTIONS, LD_PRELOAD, …: plugin-mcp's code-env.ts).
 */
import type { StdioAllowance, StdioServer } from "@switchboard/plugin-mcp"

export const stdioFlagOptions = {
  "allow-stdio": { type: "boolean", default: false },
  "allow-stdio-code-env": { type: "boolean", default: false },
} as const

export interface StdioFlagValues {
  "allow-stdio"?: boolean
  "allow-stdio-code-env"?: boolean
}

/** What the flags allow; `exactly`: transports allowed as they are without --allow-stdio (the demo's own source). */
export const stdioAllowance = (values: StdioFlagValues, exactly: readonly StdioServer[] = []): StdioAllowance => ({
  any: values["allow-stdio"] ?? false,
  exactly,
  codeEnv: values["allow-stdio-code-env"] ?? false,
})
