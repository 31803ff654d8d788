import { Hono } from "hono"
import type { z } from "zod"
import type { sourceFields } from "@switchboard/core"
import type { AppServices } from "../app-services.js"
import type { AppEnv } from "../env.js"
import { runForRequest } from "../http-errors.js"
import { checkedByService } from "../validate.js"
import type { SourceBody, SourcePatchBody, SourcesBody } from "../wire/sources.js"

/** namespace, kind, and the kind's own fields */
type SourceRequest = z.input<ReturnType<typeof sourceFields>>
/** the fields a PATCH replaces, which the source's kind decides */
type SourcePatchRequest = Record<string, unknown>

export const sourceRoutes = ({ sources }: AppServices) =>
  new Hono<AppEnv>()
    .post("/", checkedByService<SourceRequest>(), (c) =>
      runForRequest(c, sources.add(c.req.valid("json")), (source) => c.json({ source } satisfies SourceBody, 201)),
    )
    // a read key may list sources: it sees less of each config than an admin (SourcePlugin.redactConfig)
    .get("/", async (c) => c.json({ sources: await sources.list(c.get("caller")) } satisfies SourcesBody))
    .post("/:namespace/sync", (c) =>
      runForRequest(c, sources.sync(c.req.param("namespace")), (source) => c.json({ source } satisfies SourceBody)),
    )
    .patch("/:namespace", checkedByService<SourcePatchRequest>(), (c) =>
      runForRequest(c, sources.update(c.req.param("namespace"), c.req.valid("json")), (update) =>
        c.json(update satisfies SourcePatchBody),
      ),
    )
    .delete("/:namespace", (c) => runForRequest(c, sources.remove(c.req.param("namespace")), () => c.body(null, 204)))
