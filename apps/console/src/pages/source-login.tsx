/**
 * "Connect": a source's OAuth login over the API's own routes. POST /v1/sources/:namespace/login answers the
 * authorization URL, which opens in a new tab; the person logs in there, the authorization server sends that tab to
 * the server's callback, which finishes the login and syncs the source. Meanwhile this page asks
 * GET /v1/sources/:namespace each second until its `auth` says connected (or the login expires).
 */
import { useEffect, useState } from "preact/hooks"
import { api, errorText } from "../api.js"

const POLL_MS = 1_000

export interface Login {
  namespace: string
  authorizationUrl: string
  expiresAt: string
}

/** begins the login and opens its page; the login to watch, or the API's refusal */
export const beginLogin = async (
  namespace: string,
): Promise<{ ok: true; login: Login } | { ok: false; message: string }> => {
  const response = await api.v1.sources[":namespace"].login.$post({ param: { namespace } })
  if (!response.ok) return { ok: false, message: await errorText(response) }
  const { authorizationUrl, expiresAt } = await response.json()
  // noopener: the login page gets no handle on this one
  window.open(authorizationUrl, "_blank", "noopener")
  return { ok: true, login: { namespace, authorizationUrl, expiresAt } }
}

/** What the person sees while the login is under way, with the link again in case the browser kept the tab closed. */
export const LoginWatch = ({ login, done }: { login: Login; done: (message: string) => void }) => {
  const [status, setStatus] = useState("waiting for the login")
  useEffect(() => {
    let stopped = false
    const deadline = Date.parse(login.expiresAt)
    const poll = async () => {
      if (stopped) return
      const response = await api.v1.sources[":namespace"].$get({ param: { namespace: login.namespace } })
      if (stopped) return
      if (response.ok) {
        const { source } = await response.json()
        if (source.auth?.status === "connected") return done(`${login.namespace} is connected`)
        setStatus(`waiting for the login (${source.auth?.status ?? "no login"})`)
      } else setStatus(await errorText(response))
      if (Date.now() > deadline) return done(`the login of ${login.namespace} expired before it was completed`)
      timer = setTimeout(poll, POLL_MS)
    }
    let timer = setTimeout(poll, POLL_MS)
    return () => {
      stopped = true
      clearTimeout(timer)
    }
  }, [login])
  return (
    <section class="card" aria-label={`Login of ${login.namespace}`}>
      <p role="status" data-testid="login-status">
        {login.namespace}: {status}
      </p>
      <p>
        Log in on the page that opened, or{" "}
        <a href={login.authorizationUrl} target="_blank" rel="noopener noreferrer">
          open the login page
        </a>
        . This page follows the login until {new Date(login.expiresAt).toLocaleTimeString()}.
      </p>
    </section>
  )
}
