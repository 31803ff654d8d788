/**
 * A tool path resolved against a fresh catalog: the source (synced first if it is stale), the tool's row and the
 * policy its calls fall under, once per path per execution.
 */
import type { CatalogStore } from "../catalog/rows.js"
import type { PolicyDecider } from "../policy/policy.js"
import { ToolErrorCodes, errResult } from "../result.js"
import type { ToolResult } from "../result.js"
import { authRequiredMessage } from "../oauth/login-hint.js"
import type { SourcesService } from "../sources/sources-service.js"
import { directOutcome } from "./call-outcome.js"
import type { CallOutcome, ResolvedTool } from "./call-outcome.js"
import type { Execution } from "./execution.js"

export interface ToolResolutionOptions {
  store: Pick<CatalogStore, "getSource" | "getTool">
  sources: Pick<SourcesService, "ensureFresh">
  policies: PolicyDecider
  /** `tool_not_found`, naming the closest paths (./discovery.ts) */
  notFound: (path: string, namespace: string | null) => Promise<ToolResult>
}

export const createToolResolution = ({ store, sources, policies, notFound }: ToolResolutionOptions) => {
  const lookUp = async (
    ctx: Execution,
    path: string,
    { namespace, name }: { namespace: string; name: string },
  ): Promise<ResolvedTool | CallOutcome> => {
    const stored = await store.getSource(namespace)
    if (!stored) return directOutcome(await notFound(path, null))
    const source = await sources.ensureFresh(stored)
    const tool = await store.getTool(namespace, name)
    // a source waiting for its first login has no tools yet: the call says how to log in, not that it is unknown
    if (!tool && source.status === "needs_login")
      return directOutcome(errResult(ToolErrorCodes.authRequired, source.syncError ?? authRequiredMessage(namespace)))
    if (!tool) return directOutcome(await notFound(path, namespace))
    const policy = await policies.decide({ path, namespace: source.namespace, annotations: tool.annotations })
    const entry = { source, tool, policy }
    ctx.resolved.set(path, entry)
    return entry
  }

  /** Calls of one path made while its lookup is out share it; once it settles, a path that found nothing is looked up anew. */
  return (ctx: Execution, path: string, parts: { namespace: string; name: string }) => {
    const pending = ctx.resolving.get(path)
    if (pending) return pending
    const lookup = lookUp(ctx, path, parts).finally(() => ctx.resolving.delete(path))
    ctx.resolving.set(path, lookup)
    return lookup
  }
}
