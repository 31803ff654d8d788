/**
 * What each built command loads before it runs (issue 17 §2): the files it imports statically, from the build's
 * own metafiles. A command that runs no script loads no QuickJS, a SQLite host no Postgres driver, a loopback
 * server no undici; `tools` loads no zod and no MCP SDK. A static import of a package's index in the wrong place
 * (the runtime's index reaches its TypeScript stripper) puts them back, and this says which.
 */
import type { Metafile } from "esbuild"
import { beforeAll, expect, it } from "vitest"
import { buildCli } from "../scripts/build-cli.mjs"

let metafiles: Metafile[]
beforeAll(async () => {
  metafiles = await buildCli()
}, 120_000)

/** every input in the files `lib/<command>.mjs` imports statically, as package names or source paths */
const loadedBy = (command: string): string[] => {
  const meta = metafiles.find((m) => Object.keys(m.outputs).some((out) => out.endsWith(`lib/${command}.mjs`)))!
  const outputs = meta.outputs
  const entry = Object.keys(outputs).find((out) => out.endsWith(`lib/${command}.mjs`))!
  const seen = new Set<string>()
  const visit = (out: string) => {
    if (seen.has(out)) return
    seen.add(out)
    for (const i of outputs[out]!.imports) if (i.kind === "import-statement" && outputs[i.path]) visit(i.path)
  }
  visit(entry)
  const inputs = [...seen].flatMap((out) => Object.keys(outputs[out]!.inputs))
  return [
    ...new Set(inputs.map((input) => /node_modules\/\.pnpm\/[^/]+\/node_modules\/(.+)$/.exec(input)?.[1] ?? input)),
  ]
}

const packagesIn = (inputs: string[]) =>
  new Set(inputs.map((input) => /^(@[^/]+\/[^/]+|[^/.][^/]*)\//.exec(input)?.[1]).filter((name) => name !== undefined))

it("serve loads neither QuickJS's JavaScript, its TypeScript stripper, undici nor postgres.js on its main thread", () => {
  const packages = packagesIn(loadedBy("serve"))
  for (const absent of ["sucrase", "acorn", "quickjs-emscripten-core", "undici", "postgres"])
    expect(packages, absent).not.toContain(absent)
  // what it does load: the app, the pool that starts the workers, the SQLite dialect
  for (const present of ["hono", "zod", "effect", "drizzle-orm"]) expect(packages, present).toContain(present)
  expect(loadedBy("serve")).toContain("../../packages/runtime-quickjs/src/node/worker-pool.ts")
})

it("tools and keys load the catalog's store alone: no zod, MCP SDK, hono, QuickJS or Postgres driver", () => {
  for (const command of ["tools", "keys"]) {
    const packages = packagesIn(loadedBy(command))
    for (const absent of ["zod", "@modelcontextprotocol/sdk", "hono", "quickjs-emscripten-core", "sucrase", "postgres"])
      expect(packages, `${command}: ${absent}`).not.toContain(absent)
    expect(packages, command).toContain("drizzle-orm")
  }
})
