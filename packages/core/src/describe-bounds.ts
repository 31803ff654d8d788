/**
 * Describe's bounds, read by the describe request's schema and by the describe service; no zod here, so a bundle
 * that describes need not load it.
 */

/** tools a describe search answers when the request names no limit */
export const DEFAULT_DESCRIBE_LIMIT = 10
/** the most tools one describe answers, by paths or by search */
export const MAX_DESCRIBE_TOOLS = 100
/**
 * A declared data type whose TypeScript (with the declarations it needs) is longer than this many characters is
 * declared to fewer levels of fields: about 1,500 tokens, a fraction of what a REST API's full objects take.
 */
export const DATA_DECLARATION_CHARS = 6_000
/** the most data fields one describe names */
export const MAX_DESCRIBE_FIELDS = 50
