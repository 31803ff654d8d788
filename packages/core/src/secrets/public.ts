/** The secret box that seals values at rest, and the catalog store that seals and opens them. */
export { createSealedCatalogStore } from "./sealed-store.js"
export { createSecretBox, generateSecretKey, parseSecretKey, encodeSecretKey } from "./secret-box.js"
export type { SecretBox } from "./secret-box.js"
