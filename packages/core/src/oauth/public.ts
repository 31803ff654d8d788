/** OAuth for sources: the settings a source's `auth` takes, the service that logs sources in and keeps their tokens. */
export { oauthSettings, oauthSettingsRule, oauthSettingsShape } from "./settings.js"
export { createOAuthService } from "./oauth-service.js"
export type { OAuthService } from "./oauth-service.js"
export { authRequiredMessage } from "./login-hint.js"
