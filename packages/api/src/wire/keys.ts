/** The bodies of /v1/keys: a key to create, and a key as the API shows it (never its hash; its secret only once). */
import { z } from "zod"
import * as Auth from "@switchboard/core/auth"

const scopeList = Auth.SCOPES.join(", ")
const scopesError = `"scopes" must be a non-empty array of scope names: ${scopeList}`

/** The longest key name: a label for people, shown in lists and logs. */
export const MAX_KEY_NAME_LENGTH = 200

const nameError = `"name" must be a string of 1 to ${MAX_KEY_NAME_LENGTH} characters naming who or what uses the key`

export const createKeyRequest = z.object(
  {
    name: z
      .string({ error: nameError })
      .trim()
      .min(1, { error: nameError })
      .max(MAX_KEY_NAME_LENGTH, { error: nameError })
      .describe("who or what uses the key, such as `ci` or `agent-7`; need not be unique"),
    scopes: z
      .array(
        z.enum(Auth.SCOPES, {
          error: (issue) => `unknown scope ${JSON.stringify(issue.input)}; the scopes are ${scopeList}`,
        }),
        { error: scopesError },
      )
      .min(1, { error: scopesError })
      .describe(
        "at least one; each includes the ones before it: `read` (the catalog and the key's own executions), " +
          "`execute` (also run scripts and describe tools), `admin` (everything, keys included)",
      ),
  },
  { error: `the body must be a JSON object: {"name": "...", "scopes": ["${Auth.SCOPES[1]}"]}` },
)

const timestamp = z.string().meta({ format: "date-time" })

export const keyView = z.object({
  id: z.string().describe("what DELETE /v1/keys/{id} takes, and an execution's `keyId`"),
  name: z.string(),
  scopes: z
    .array(z.string())
    .describe(
      'as stored: `read`, `execute`, `admin`; a key made before scopes were checked holds `"*"`, which is admin',
    ),
  scope: z
    .enum(Auth.SCOPES)
    .nullable()
    .describe("the highest scope the key grants: what the server checks (null: the stored scopes grant nothing)"),
  createdAt: timestamp,
  revokedAt: timestamp.nullable().describe("null while the key is live"),
})
export type KeyView = z.input<typeof keyView>

export const keyCreatedBody = z.object({
  key: keyView,
  secret: z
    .string()
    .describe(
      "the key itself (`sb_…`), to send as `Authorization: Bearer <secret>`; shown only in this answer, and only its SHA-256 is stored",
    ),
})
export type KeyCreatedBody = z.input<typeof keyCreatedBody>

export const keysBody = z.object({ keys: z.array(keyView).describe("every key, revoked ones too, oldest first") })
export type KeysBody = z.input<typeof keysBody>
