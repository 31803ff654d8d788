/** The SDK's client (./sdk-client.ts) loaded once, when the first connection is made. */
import type * as SdkClient from "./sdk-client.js"

export type ClientSdk = typeof SdkClient

let loaded: ClientSdk | undefined

export const loadClientSdk = async (): Promise<ClientSdk> => (loaded ??= await import("./sdk-client.js"))

/**
 * The SDK if a connection loaded it, else undefined: what tells an SDK error from another. None of its errors or
 * transports exists before it is loaded, so undefined means "not one of them".
 */
export const loadedClientSdk = (): ClientSdk | undefined => loaded
