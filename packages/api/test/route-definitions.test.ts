/**
 * Each route's scope check and its OpenAPI operation read the one definition of the route (src/routes): they cannot
 * disagree, and a route without a definition is neither served nor described.
 */
import { expect, it } from "vitest"
import { openApiDocument } from "../src/index.js"
import { allRoutes } from "../src/routes/all-routes.js"
import { requiredScope } from "../src/scopes.js"

/** a path the route's pattern matches: each parameter filled in */
const concrete = (path: string) => path.replace(/:\w+/g, "x1")

it("gives every defined route the scope its definition names, HEAD as GET", () => {
  expect(allRoutes.length).toBeGreaterThan(25)
  for (const { method, path, scope } of allRoutes) {
    expect(requiredScope(method, concrete(path)), `${method} ${path}`).toBe(scope)
    if (method === "get") expect(requiredScope("HEAD", concrete(path)), `HEAD ${path}`).toBe(scope)
  }
})

it("describes every defined route but a hidden one, with the scope and the summary its definition names", () => {
  const { paths } = openApiDocument()
  for (const route of allRoutes) {
    const operation = (paths as Record<string, Record<string, { summary: string; security: unknown }>>)[
      route.path.replace(/:(\w+)/g, "{$1}")
    ]?.[route.method]
    if (route.hidden) {
      expect(operation, `${route.method} ${route.path}`).toBeUndefined()
      continue
    }
    expect(operation?.summary).toBe(route.summary)
    expect(operation?.security).toEqual(route.probe ? [] : [{}, { apiKey: route.scope === null ? [] : [route.scope] }])
  }
})
