/**
 * Where the catalog commands (`run`, `tools`, `sources`, `describe`, `call`, `executions`, `policies`,
 * `approvals`) find the catalog, and how they end. The local database is the default: it needs no server, and
 * `--db` means what it means for every other command. `--url` (or $SWITCHBOARD_URL) is a running server instead,
 * sent $SWITCHBOARD_KEY as its key when set. A flag wins over the environment; both flags at once is an error.
 * Nothing here loads a client: `tools` and `run` import the one they need (./catalog-target.ts opens either).
 */
import type { CatalogClient } from "../catalog-client/catalog-client.js"
import { isCatalogClientError } from "../catalog-client/catalog-client.js"
import { KEY_ENV, URL_ENV } from "../cli/flags.js"
import { displayDb } from "../database/display-db.js"
import { defaultDb, existingCatalog, fail } from "./common.js"

export interface TargetValues {
  db?: string
  url?: string
  "allow-stdio"?: boolean
  "allow-stdio-code-env"?: boolean
}

const serverUrl = (url: string, from: string) => {
  let parsed: URL | undefined
  try {
    parsed = new URL(url)
  } catch {}
  if (!parsed || (parsed.protocol !== "http:" && parsed.protocol !== "https:"))
    fail(`${from} must be the server's http(s) URL, such as http://127.0.0.1:4747 (got "${displayDb(url)}")`)
  // fetch refuses one, and its error names the whole URL
  if (parsed!.username || parsed!.password)
    fail(`${from} must not carry a user or password (got "${displayDb(url)}"): the key goes in $${KEY_ENV}`)
  return url
}

export type CatalogTarget = { kind: "local"; db: string } | { kind: "remote"; url: string }

/**
 * The catalog the flags name, checked before anything is opened: a wrong combination, a URL that is not one or a
 * database that is not there exit 2. `localOnly`: flags given that only a local catalog takes (a server has its own).
 */
export const catalogTarget = (values: TargetValues, localOnly: readonly string[] = []): CatalogTarget => {
  if (values.url !== undefined && values.db !== undefined)
    fail("give --url (a running server) or --db (a local catalog), not both")
  const fromEnv = values.db === undefined ? process.env[URL_ENV] || undefined : undefined
  const url = values.url ?? fromEnv
  if (url === undefined) return { kind: "local", db: existingCatalog(values.db ?? defaultDb()) }
  if (values["allow-stdio"] || values["allow-stdio-code-env"])
    fail("--allow-stdio is for the local catalog: a server starts stdio sources only when it was started with it")
  if (localOnly.length > 0)
    fail(`${localOnly.map((flag) => `--${flag}`).join(", ")}: for a local catalog; a server applies its own settings`)
  // sent as a header, which holds no character past U+00FF: fetch's error would read as "no server answered"
  const key = process.env[KEY_ENV] ?? ""
  if (/[^\x21-\x7e]/.test(key.trim()))
    fail(
      `$${KEY_ENV} is not an API key: it holds a space or a character outside printable ASCII (a key is sb_ and base64url)`,
    )
  return { kind: "remote", url: serverUrl(url, values.url === undefined ? `$${URL_ENV}` : "--url") }
}

/**
 * Runs `work` on `client`, then closes it. What the API answers as `{"error":{"code","message"}}` (from the server,
 * or the same failure of the local catalog) is printed as `switchboard: <message> (<code>)`: exit code 1.
 */
export const withClient = async <A>(
  client: CatalogClient,
  work: (client: CatalogClient) => Promise<A>,
): Promise<{ ok: true; value: A } | { ok: false; code: number }> => {
  try {
    return { ok: true, value: await work(client) }
  } catch (error) {
    if (!isCatalogClientError(error)) throw error
    process.stderr.write(`switchboard: ${error.message} (${error.code})\n`)
    return { ok: false, code: 1 }
  } finally {
    await client.close()
  }
}

/** a line of output: text that does not end with a newline gets one (an empty text stays empty) */
export const asLine = (text: string) => (text === "" || text.endsWith("\n") ? text : `${text}\n`)

export const printJson = (value: unknown) => process.stdout.write(`${JSON.stringify(value)}\n`)
