/** The console's pages live in the URL's fragment (`/#/approvals/<id>`): the server serves one index.html for all of them. */
import { useEffect, useState } from "preact/hooks"

export const useRoute = () => {
  const [hash, setHash] = useState(location.hash)
  useEffect(() => {
    const changed = () => setHash(location.hash)
    addEventListener("hashchange", changed)
    return () => removeEventListener("hashchange", changed)
  }, [])
  return hash.replace(/^#\/?/, "").split("/").map(decodeURIComponent)
}
