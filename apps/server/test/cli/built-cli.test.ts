/**
 * What each built command runs when its bundle loads (issue 17 §2), from the build's own metafiles. A command that runs no script loads no QuickJS, a SQLite host no Postgres driver, a loopback
 * server no undici; `tools` loads no zod and no MCP SDK. A static import of a package's index in the wrong place
 * (the runtime's index reaches its TypeScript stripper) puts them back, and this says which.
 */
import type { Metafile } from "esbuild"
import { expect, inject, it } from "vitest"

// the build test/support/global-setup.ts made for this run
const metafiles: Metafile[] = inject("builtCliMetafiles")

/**
 * every input the bundle of `group` runs when it loads, as package names or source paths: those it reaches from
 * its entry by static imports and require() calls, not through a dynamic import (code esbuild runs only when that
 * import is reached), and that tree-shaking left in the bundle
 */
const loadedBy = (group: string): string[] => {
  const meta = metafiles.find((m) => Object.keys(m.outputs).some((out) => out.endsWith(`lib/${group}.cjs`)))!
  const output = Object.entries(meta.outputs).find(([out]) => out.endsWith(`lib/${group}.cjs`))![1]
  const inBundle = new Set(
    Object.entries(output.inputs).flatMap(([input, { bytesInOutput }]) => (bytesInOutput > 0 ? [input] : [])),
  )
  const entry = Object.keys(meta.inputs).find((input) => input.endsWith(`${group}-bundle-entry.ts`))!
  const seen = new Set<string>()
  const visit = (input: string) => {
    if (seen.has(input)) return
    seen.add(input)
    for (const i of meta.inputs[input]?.imports ?? []) if (i.kind !== "dynamic-import") visit(i.path)
  }
  visit(entry)
  const inputs = [...seen].filter((input) => inBundle.has(input))
  return [
    ...new Set(inputs.map((input) => /node_modules\/\.pnpm\/[^/]+\/node_modules\/(.+)$/.exec(input)?.[1] ?? input)),
  ]
}

const packagesIn = (inputs: string[]) =>
  new Set(inputs.map((input) => /^(@[^/]+\/[^/]+|[^/.][^/]*)\//.exec(input)?.[1]).filter((name) => name !== undefined))

it("serve (the host bundle, with run and mcp) loads neither QuickJS's JavaScript, its TypeScript stripper, undici, postgres.js nor the MCP SDK on its main thread", () => {
  const packages = packagesIn(loadedBy("host"))
  // nor the MCP SDK (~60 ms of zod schemas): the /mcp route, a source's first connection and `mcp` load it
  for (const absent of [
    "sucrase",
    "acorn",
    "quickjs-emscripten-core",
    "undici",
    "postgres",
    "@modelcontextprotocol/sdk",
  ])
    expect(packages, absent).not.toContain(absent)
  // what it does load: the app, the pool that starts the workers, the SQLite dialect
  for (const present of ["hono", "zod", "effect", "drizzle-orm"]) expect(packages, present).toContain(present)
  expect(loadedBy("host")).toContain("../../packages/runtime-quickjs/src/node/worker-pool.ts")
})

it("tools and keys load the catalog's store alone: no zod, MCP SDK, hono, QuickJS or Postgres driver", () => {
  for (const command of ["tools", "keys"]) {
    const packages = packagesIn(loadedBy(command))
    for (const absent of ["zod", "@modelcontextprotocol/sdk", "hono", "quickjs-emscripten-core", "sucrase", "postgres"])
      expect(packages, `${command}: ${absent}`).not.toContain(absent)
    expect(packages, command).toContain("drizzle-orm")
  }
})

it("the catalog's commands load its store alone, and reach the host's bundle only through import(): no MCP SDK, QuickJS, zod or hono server", () => {
  const inputs = loadedBy("catalog")
  const packages = packagesIn(inputs)
  for (const absent of ["zod", "@modelcontextprotocol/sdk", "quickjs-emscripten-core", "sucrase", "postgres", "undici"])
    expect(packages, absent).not.toContain(absent)
  expect(packages).toContain("drizzle-orm")
  // of hono, the typed client only (the remote catalog): not the app nor its router
  const hono = inputs.filter((input) => input.startsWith("hono/"))
  expect(hono.length).toBeGreaterThan(0)
  for (const input of hono) expect(input).toMatch(/^hono\/dist\/(client|utils)\//)
  // the host (compose.ts and all it builds) is not in the bundle at all: add, sync, remove and call load lib/host.cjs
  const meta = metafiles.find((m) => Object.keys(m.outputs).some((out) => out.endsWith("lib/catalog.cjs")))!
  expect(Object.keys(meta.inputs).filter((input) => input.endsWith("src/compose.ts"))).toEqual([])
})

it("no bundle keeps a native import() of what it leaves outside (Node 20 loses its callback in the code cache)", () => {
  // a function V8 restores from lib/<group>.cjs.cache throws ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING at a native
  // import(): the OTLP exporter's import("http") failed so on every start after the first (test/observability/otlp-export.test.ts)
  const kept = metafiles.flatMap((meta) =>
    Object.entries(meta.outputs).flatMap(([out, output]) =>
      output.imports.filter((i) => i.kind === "dynamic-import").map((i) => `${out}: import("${i.path}")`),
    ),
  )
  expect(kept).toEqual([])
})
