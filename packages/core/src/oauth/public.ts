/** OAuth for sources: the settings a source's `auth` takes, the service that logs sources in and keeps their tokens. */
export { oauthSettings } from "./settings.js"
export type { OAuthSettings } from "./settings.js"
export { createOAuthService, authViewOf } from "./oauth-service.js"
export type { OAuthService, SourceAuthView } from "./oauth-service.js"
export { loginHint } from "./credentials.js"
