/**
 * Where the catalog commands (`sources`, `describe`, `call`, `executions`) find the catalog, and how they end.
 * The local database is the default, as for `tools`, `keys` and `run`: it needs no server, and `--db` means what it
 * means for every other command. `--url` (or $SWITCHBOARD_URL) is a running server instead, sent $SWITCHBOARD_KEY
 * as its key when set. A flag wins over the environment; both flags at once is an error.
 */
import type { CatalogClient } from "../catalog-client/catalog-client.js"
import { isCatalogClientError } from "../catalog-client/catalog-client.js"
import { openLocalClient } from "../catalog-client/local-client.js"
import { KEY_ENV, openRemoteClient } from "../catalog-client/remote-client.js"
import { displayDb } from "../display-db.js"
import { stdioAllowance, stdioFlagOptions } from "../stdio-flags.js"
import { defaultDb, existingCatalog, fail } from "./common.js"

export const URL_ENV = "SWITCHBOARD_URL"

export const targetOptions = {
  db: { type: "string" },
  url: { type: "string" },
  json: { type: "boolean", default: false },
} as const

/** for the commands that may start a source's server: add, sync, call (--allow-stdio, --allow-stdio-code-env) */
export const allowStdioOption = stdioFlagOptions

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

/** The catalog the flags name; a wrong combination, a URL that is not one or a database that is not there exit 2. */
export const openCatalogClient = (values: TargetValues): CatalogClient => {
  if (values.url !== undefined && values.db !== undefined)
    fail("give --url (a running server) or --db (a local catalog), not both")
  const fromEnv = values.db === undefined ? process.env[URL_ENV] || undefined : undefined
  const url = values.url ?? fromEnv
  if (url === undefined)
    return openLocalClient(existingCatalog(values.db ?? defaultDb()), { allowStdio: stdioAllowance(values) })
  if (values["allow-stdio"] || values["allow-stdio-code-env"])
    fail("--allow-stdio is for the local catalog: a server starts stdio sources only when it was started with it")
  return openRemoteClient(serverUrl(url, values.url === undefined ? `$${URL_ENV}` : "--url"))
}

/**
 * Runs a command's work against the catalog and exits with the code it returns. What the API answers as
 * `{"error":{"code","message"}}` (from the server, or the same failure of the local catalog) is printed as
 * `switchboard: <message> (<code>)`, exit 1.
 */
export const withCatalog = async (values: TargetValues, work: (client: CatalogClient) => Promise<number>) => {
  const client = openCatalogClient(values)
  let code: number
  try {
    code = await work(client)
  } catch (error) {
    if (!isCatalogClientError(error)) throw error
    process.stderr.write(`switchboard: ${error.message} (${error.code})\n`)
    code = 1
  } finally {
    await client.close()
  }
  process.exit(code)
}

/** a line of output: text that does not end with a newline gets one (an empty text stays empty) */
export const asLine = (text: string) => (text === "" || text.endsWith("\n") ? text : `${text}\n`)

export const printJson = (value: unknown) => process.stdout.write(`${JSON.stringify(value)}\n`)
