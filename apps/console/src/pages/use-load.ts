/** Loads a page's data, and loads it again on `reload()`. */
import { useCallback, useEffect, useState } from "preact/hooks"

export type Loaded<T> = { state: "loading" } | { state: "ok"; value: T } | { state: "error"; message: string }

export const useLoad = <T>(
  load: () => Promise<{ ok: true; value: T } | { ok: false; message: string }>,
  deps: unknown[],
) => {
  const [loaded, setLoaded] = useState<Loaded<T>>({ state: "loading" })
  const reload = useCallback(
    () =>
      void load().then(
        (r) => setLoaded(r.ok ? { state: "ok", value: r.value } : { state: "error", message: r.message }),
        (cause: unknown) => setLoaded({ state: "error", message: String(cause) }),
      ),
    deps,
  )
  useEffect(reload, [reload])
  return [loaded, reload] as const
}
