/**
 * `switchboard call ns.tool '{"a":1}'` runs as one execution of a script that calls the tool and returns its
 * result, so it is recorded as any execution is, a key's scopes apply, and the result contract decodes it. The
 * path's parts and the arguments reach the script only as JSON string literals: the arguments are parsed inside
 * the sandbox (an object literal would give a `__proto__` key a meaning), and nothing given is read as code.
 */
import * as Catalog from "@switchboard/core/catalog"

export const callScript = (path: string, args: Record<string, unknown>): string => {
  const parts = Catalog.splitToolPath(path)
  if (!parts) throw new Error(`not a tool path: ${JSON.stringify(path)}`)
  const literal = (value: string) => JSON.stringify(value)
  return `return await tools[${literal(parts.namespace)}][${literal(parts.name)}](JSON.parse(${literal(JSON.stringify(args))}))`
}
