/** The OpenAPI document against the app itself: every route the app registers is described, and no other. */
import { expect, it } from "vitest"
import { openApiDocument } from "../src/index.js"
import { stubApp } from "./stub-app.js"

/** The stub app has no source kind: POST /v1/sources is the fields every source has, alone. */
const described = openApiDocument()

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"]

/**
 * hono writes path parameters `:name`; OpenAPI writes them `{name}`. A route with a validator is listed once per
 * handler (the validator, then the route's own), so each is counted once.
 */
const routesOfApp = (app: ReturnType<typeof stubApp>) => [
  ...new Set(
    app.routes
      // app.use middleware is registered for method ALL; no route of ours is
      .filter((r) => r.method !== "ALL")
      .map((r) => `${r.method} ${r.path.replace(/:(\w+)/g, "{$1}")}`),
  ),
]

const routesOfDocument = (document: { paths: Record<string, Record<string, unknown>> }) =>
  Object.entries(document.paths).flatMap(([path, item]) =>
    Object.keys(item)
      .filter((key) => METHODS.includes(key))
      .map((method) => `${method.toUpperCase()} ${path}`),
  )

it("is served at /v1/openapi.json as parseable OpenAPI 3.1", async () => {
  const response = await stubApp().request("http://127.0.0.1/v1/openapi.json")
  expect(response.status).toBe(200)
  const document = JSON.parse(await response.text())
  expect(document.openapi).toBe("3.1.0")
  expect(document).toEqual(JSON.parse(JSON.stringify(described)))
})

it("describes every route the app registers, and no route it does not", () => {
  const app = routesOfApp(stubApp()).sort()
  const documented = routesOfDocument(described).sort()
  expect(app.length).toBeGreaterThan(10)
  expect(documented).toEqual(app)
})

it("resolves every $ref, and declares every path parameter", () => {
  const document = JSON.parse(JSON.stringify(described))
  const refs: string[] = []
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(walk)
    if (typeof node !== "object" || node === null) return
    for (const [key, value] of Object.entries(node)) key === "$ref" ? refs.push(value as string) : walk(value)
  }
  walk(document)
  expect(refs.length).toBeGreaterThan(20)
  for (const ref of refs) {
    expect(ref, ref).toMatch(/^#\//)
    const target = ref
      .slice(2)
      .split("/")
      .reduce<any>((node, key) => node?.[key], document)
    expect(target, ref).toBeDefined()
  }
  for (const [path, item] of Object.entries<Record<string, { parameters?: { name: string; in: string }[] }>>(
    document.paths,
  )) {
    const inPath = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort()
    for (const [method, operation] of Object.entries(item)) {
      const declared = (operation.parameters ?? [])
        .filter((p) => p.in === "path")
        .map((p) => p.name)
        .sort()
      expect(declared, `${method} ${path}`).toEqual(inPath)
    }
  }
})

it("names an operation id once per operation", () => {
  const ids = Object.values(described.paths).flatMap((item) =>
    Object.values(item).map((operation) => (operation as { operationId: string }).operationId),
  )
  expect(ids.every((id) => typeof id === "string")).toBe(true)
  expect(new Set(ids).size).toBe(ids.length)
})
