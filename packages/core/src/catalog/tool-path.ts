/** `ns.tool` split at the first dot: namespaces have none, tool names may. Null when either side is empty. */
export const splitToolPath = (path: string): { namespace: string; name: string } | null => {
  const dot = path.indexOf(".")
  return dot <= 0 || dot === path.length - 1 ? null : { namespace: path.slice(0, dot), name: path.slice(dot + 1) }
}
