/** How a person logs in to a source, for every message that asks them to (a script's error, a listing, the API). */
export const loginHint = (namespace: string) =>
  `run \`switchboard sources login ${namespace}\` (or POST /v1/sources/${namespace}/login with an admin key)`

export const authRequiredMessage = (namespace: string) =>
  `source "${namespace}" needs an OAuth login: ${loginHint(namespace)}`
