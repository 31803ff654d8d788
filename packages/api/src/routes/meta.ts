/**
 * The routes about the server itself: the probes an orchestrator asks without a key (../probes.ts), this API's
 * OpenAPI document, and the host's metrics when it keeps them.
 */
import { READY_TIMEOUT_MS, readiness } from "../probes.js"
import { healthBody, notReadyBody, readyBody } from "../wire/probes.js"
import { routeGroup } from "./route-group.js"

export const metaRoutes = routeGroup((services, { openApi }) => ({ ready: readiness(services), openApi }))
  .route({
    method: "get",
    path: "/healthz",
    scope: null,
    probe: true,
    operationId: "health",
    tag: "meta",
    summary: "Liveness; never needs a key",
    responses: { 200: { description: "the server is up", json: healthBody } },
    handler: (c) => c.json({ ok: true } as const),
  })
  .route({
    method: "get",
    path: "/readyz",
    scope: null,
    probe: true,
    operationId: "ready",
    tag: "meta",
    summary: `Readiness; never needs a key. Reads the catalog and commits a write that changes nothing, within ${READY_TIMEOUT_MS} ms`,
    responses: {
      200: { description: "the catalog can be read and written", json: readyBody },
      503: {
        description:
          "it cannot; `reason` is the database's own error: a SQLite file locked, unwritable, deleted or replaced, a Postgres that refuses or does not answer",
        json: notReadyBody,
      },
    },
    handler: (c, { ready }) => ready(c),
  })
  .route({
    method: "get",
    path: "/v1/openapi.json",
    // the API's description is no secret, and every key needs it to learn the API
    scope: null,
    operationId: "openApi",
    tag: "meta",
    summary: "This document",
    responses: { 200: { description: "an OpenAPI 3.1 document", json: { type: "object" } } },
    handler: (c, { openApi }) => c.json(openApi()),
  })

/** GET /metrics, on a host that keeps metrics (the Node host: Prometheus text). */
export const metricsRoutes = routeGroup(
  (_, { metrics }) => ({ metrics: metrics! }),
  (options) => options.metrics !== undefined,
).route({
  method: "get",
  path: "/metrics",
  // counts of everything the server did, sources by name included
  scope: "admin",
  hidden: true,
  operationId: "metrics",
  tag: "meta",
  summary: "The host's metrics",
  responses: { 200: { description: "the host's metrics, in its own format", text: true } },
  handler: async (c, { metrics }) => {
    const { contentType, body } = await metrics()
    return c.body(body, 200, { "content-type": contentType })
  },
})
