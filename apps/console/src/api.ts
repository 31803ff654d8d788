/**
 * The console's one way to the server: the API's own typed client (@switchboard/api/client), same origin, the key
 * (when there is one) in the Authorization header, kept in session storage only: it ends with the tab, and it is
 * never a cookie, so no other page can make the browser send it.
 */
import { createClient } from "@switchboard/api/client"

const KEY = "switchboard.key"

export const storedKey = () => sessionStorage.getItem(KEY)
export const storeKey = (key: string) => sessionStorage.setItem(KEY, key)
export const forgetKey = () => sessionStorage.removeItem(KEY)

export const api = createClient(location.origin, {
  headers: (): Record<string, string> => {
    const key = storedKey()
    return key ? { authorization: `Bearer ${key}` } : {}
  },
})

/** The text of an error answer (`{"error":{"code","message"}}`), or the status when the body is not one. */
export const errorText = async (response: Response) => {
  const body = (await response.json().catch(() => null)) as { error?: { code?: string; message?: string } } | null
  return body?.error?.message ? `${body.error.message} (${body.error.code})` : `HTTP ${response.status}`
}

/** What the signed-in caller may do, learnt by asking the routes that need each scope. */
export interface Access {
  /** the server checks keys (false: a loopback server without keys, where every caller is admin) */
  keyed: boolean
  execute: boolean
  admin: boolean
}

export type SignIn = { ok: true; access: Access } | { ok: false; needsKey: boolean; message: string }

export const signIn = async (): Promise<SignIn> => {
  const read = await api.v1.sources.$get()
  if (read.status === 401) return { ok: false, needsKey: true, message: storedKey() ? await errorText(read) : "" }
  if (!read.ok) return { ok: false, needsKey: false, message: await errorText(read) }
  const [admin, execute] = await Promise.all([
    api.v1.policies.$get(),
    api.v1.describe.$post({ json: { query: "a", limit: 1 } }),
  ])
  // /v1/keys answers 403 on a server that checks no key, whoever asks
  const keys = admin.ok ? await api.v1.keys.$get() : null
  return { ok: true, access: { keyed: keys?.status !== 403, admin: admin.ok, execute: execute.ok } }
}

/** A time as the console shows it: local, to the second. */
export const when = (at: number | string | null) => (at === null ? "never" : new Date(at).toLocaleString())
