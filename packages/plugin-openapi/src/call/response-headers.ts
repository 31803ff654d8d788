/**
 * The answer's headers as a script sees them (`meta.headers`): every header but cookies and credentials — those
 * named so (`set-cookie`, `authorization`, `*-token`, `*-key`, `*secret*`, `*session*`...) and those the source sends
 * its own credentials in (its API key headers), which a service may echo.
 */

const CREDENTIAL =
  /cookie|authori[sz]ation|authenticate|token|secret|password|passwd|session|credential|(^|-)(api-?)?key$|signature/i

export const responseHeaders = (headers: Headers, hidden: ReadonlySet<string>): Record<string, string> => {
  const out: Record<string, string> = {}
  headers.forEach((value, name) => {
    const lower = name.toLowerCase()
    if (CREDENTIAL.test(lower) || hidden.has(lower)) return
    out[lower] = value
  })
  return out
}
