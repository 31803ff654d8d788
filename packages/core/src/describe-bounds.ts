/**
 * Describe's bounds, read by the describe request's schema and by the describe service; no zod here, so a bundle
 * that describes need not load it.
 */

/** tools a describe search answers when the request names no limit */
export const DEFAULT_DESCRIBE_LIMIT = 10
/** the most tools one describe answers, by paths or by search */
export const MAX_DESCRIBE_TOOLS = 100
