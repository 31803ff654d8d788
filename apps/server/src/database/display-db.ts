/**
 * A catalog database (`--db`, $DATABASE_URL) or server URL (`--url`) as it may be printed: a URL's password and
 * every `password=` query value (libpq's, and postgres.js's `sslpassword`) replaced, the rest as written, so the
 * line still names the host and database. A path is not a URL and is printed as it is. Every line a command
 * prints with a db or URL in it goes through here: logs and terminals are read by more people than the secret.
 */
const REDACTED = "<redacted>"

// the userinfo runs to the last @ before the query: an unencoded @ or / in a password ends it no sooner (a path
// with an @ in it is masked too far, which is the safe side)
const USERINFO = /^([a-z][\w+.-]*:\/\/)([^?#]*)@/i
const PASSWORD_PARAM = /([?&][\w-]*password=)[^&#]*/gi

export const displayDb = (db: string): string =>
  db
    .replace(USERINFO, (_, scheme: string, userinfo: string) => {
      const colon = userinfo.indexOf(":")
      return colon < 0 ? `${scheme}${userinfo}@` : `${scheme}${userinfo.slice(0, colon)}:${REDACTED}@`
    })
    .replace(PASSWORD_PARAM, `$1${REDACTED}`)
