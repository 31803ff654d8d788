/**
 * Which of a stdio source's arguments may be credentials. Servers are often given their tokens as arguments: a
 * connection string (`postgresql://user:password@host/db`, how server-postgres is configured), a header
 * (`-H "X-Api-Key: …"`, mcp-remote's `--header "Authorization: Bearer …"`), a flag's value (`--pat ghp_…`,
 * `-p …`, `--pass …`), `NAME=value` (`docker run -e GITHUB_TOKEN=…`), a webhook URL with a token in it. An
 * argument says nothing of itself, so this guesses, erring towards hiding: a secret argument is sealed at rest
 * whole, never shown (a URL keeps its scheme, host and plain path segments: ./url-secrets.ts) and scrubbed from
 * text. It must answer the same for a sealed config (`enc:v1:…` in place of each secret argument) as for its
 * plaintext, since core opens the arguments it names: a flag is never sealed, so what follows it is named either way.
 */
import { isPlainUrl, schemeUrl } from "./url-secrets.js"

/**
 * A word of a name that names a credential (`--github-api-key`: github, api, key): one of these, or one ending in
 * key, token, secret, password or credential(s). `--max-tokens` and `--path` are not.
 */
const CREDENTIAL_WORD =
  /^(?:pat|pass|pwd|auth|authorization|bearer|cookie|session|jwt|dsn|header|headers|creds?)$|(?:key|token|secret|passw(?:or)?d|passwd|credentials?)$/i

/** Short flags whose value is a credential: `-p` (a password: mysql, redis-cli), `-H` (a header: curl). */
const SECRET_SHORT_FLAGS = new Set(["-p", "-H"])

/** Tokens that say what they are, whatever precedes them (GitHub, GitLab, Slack, OpenAI/Anthropic, Stripe, AWS, Hugging Face, npm, a JWT). */
const KNOWN_TOKEN = new RegExp(
  `^(?:${[
    "gh[pousr]_[A-Za-z0-9]{20,}",
    "github_pat_\\w{20,}",
    "glpat-[\\w-]{20,}",
    "xox[abeprs]-[\\w-]{10,}",
    "xapp-[\\w-]{10,}",
    "sk-[\\w-]{20,}",
    "[sr]k_(?:live|test)_\\w{10,}",
    "AKIA[0-9A-Z]{16}",
    "hf_[A-Za-z0-9]{20,}",
    "npm_[A-Za-z0-9]{30,}",
    "eyJ[\\w-]+\\.[\\w-]+\\.[\\w-]+",
  ].join("|")})$`,
)

const wordsOf = (name: string) =>
  name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .split(/[-_.\s]+/)
    .filter((word) => word.length > 0)

export const isCredentialName = (name: string): boolean => wordsOf(name).some((word) => CREDENTIAL_WORD.test(word))

/** `--name` or `-n` (no value attached): a flag whose next argument is a credential. */
const isSecretFlag = (arg: string): boolean => {
  if (SECRET_SHORT_FLAGS.has(arg)) return true
  const flag = /^--?([A-Za-z][\w.-]+)$/.exec(arg)
  return flag !== null && isCredentialName(flag[1]!)
}

/** A URL (`scheme://…`) with a credential in it: userinfo, a query value, a token-like path segment, a fragment. */
const credentialUrl = (text: string): URL | null => {
  const parsed = schemeUrl(text)
  return parsed && !isPlainUrl(parsed) ? parsed : null
}

const isSecretValue = (value: string): boolean =>
  credentialUrl(value) !== null || /\bbearer\s+\S/i.test(value) || KNOWN_TOKEN.test(value.trim())

/**
 * An argument that is a credential by itself: sealed, a credential URL or token, `--name=value`, `NAME=value` or
 * `Name: value` whose name names a credential or whose value is one.
 */
const isSecretArg = (arg: string): boolean => {
  if (arg.startsWith("enc:v1:")) return true
  if (isSecretValue(arg)) return true
  const assigned = /^(?:--?)?([A-Za-z_][\w.-]*)=(.+)$/s.exec(arg)
  if (assigned) return isCredentialName(assigned[1]!) || isSecretValue(assigned[2]!)
  const header = /^([A-Za-z][\w-]*)\s*:\s*(\S.*)$/s.exec(arg)
  return header !== null && (isCredentialName(header[1]!) || isSecretValue(header[2]!))
}

/**
 * How each secret argument is shown: `url` when it is secret only as a URL with a credential in it (shown with
 * those parts redacted), `whole` otherwise (`<redacted>`).
 */
export type ArgSecret = "url" | "whole"

/** The secret arguments, by index. What follows a credential flag is one, unless it was itself a flag's value. */
export const secretArgs = (args: readonly unknown[]): Map<number, ArgSecret> => {
  const secret = new Map<number, ArgSecret>()
  let takesValue = false
  args.forEach((arg, index) => {
    if (typeof arg !== "string") return void (takesValue = false)
    if (takesValue) secret.set(index, "whole")
    else if (isSecretArg(arg)) secret.set(index, credentialUrl(arg) ? "url" : "whole")
    // a flag's value is never a flag of its own: sealed, it could not say so, and the next index would differ
    takesValue = !takesValue && isSecretFlag(arg)
  })
  return secret
}

/** The indexes of the secret arguments, in order. */
export const secretArgIndexes = (args: readonly unknown[]): number[] => [...secretArgs(args).keys()]
