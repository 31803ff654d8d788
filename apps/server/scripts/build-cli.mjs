// `pnpm build`: the CLI as built JavaScript in dist/, from the current sources, laid out as an npm package:
//   switchboard.mjs   the entry (src/cli.ts): it loads the one command it runs from lib/
//   lib/<command>.mjs each command (src/commands/*.ts) with everything it uses, our packages and npm's
//   pool-worker.mjs   the sandbox's worker thread (runtime-quickjs's src/node/pool-worker.ts)
//   grep-worker.mjs   the output search's worker thread (scripts/build-grep-worker.mjs writes it)
//   demo-server.mjs   `switchboard demo`'s MCP server (fixtures/src/bin/demo-server.ts)
//   drizzle/          the SQL migrations
//   package.json      name, bin, and the two packages it loads from node_modules at run time
// Not one split bundle of every command: esbuild assigns a file to the chunks of every entry that reaches it, and
// every command reaches all of @switchboard/core through its index, so `tools` loaded zod, the MCP SDK and the
// Postgres dialect it never runs. Built alone, a command is tree-shaken to what it uses (the packages declare
// "sideEffects": false). better-sqlite3 is native and the QuickJS variant finds its .wasm beside its own module, so
// both stay external. Tests run it first too (test/global-setup.ts), so they never see a stale build.
import { build } from "esbuild"
import { cp, readFile, rm } from "node:fs/promises"
import { fileURLToPath } from "node:url"
import { bundleWorker, writeOutput } from "../../../scripts/bundle-worker.mjs"

const here = (path) => fileURLToPath(new URL(path, import.meta.url))
const dist = here("../dist/")
const external = ["better-sqlite3", "@jitl/quickjs-wasmfile-release-sync"]
// each group is one esbuild build with its own chunks: the commands that build a whole host share nearly all their
// code; the ones that only read the catalog are built alone, so that none carries another's code
const groups = { host: ["serve", "run", "mcp"], tools: ["tools"], keys: ["keys"], config: ["config"], usage: ["usage"] }

const options = {
  bundle: true,
  format: "esm",
  platform: "node",
  target: "node20",
  // the ES module builds first: jsonc-parser's "main" is a UMD file whose require() calls esbuild cannot follow
  mainFields: ["module", "main"],
  external,
  // CommonJS packages inside an ES module call require() for Node's own modules
  banner: {
    js: 'import { createRequire as __createRequire } from "node:module";const require = __createRequire(import.meta.url);',
  },
  legalComments: "none",
  // minified, a command loads 11–17% faster (Node compiles less text); NODE_OPTIONS=--enable-source-maps reads
  // a stack trace through the maps beside each file
  minify: true,
  sourcemap: "linked",
  sourcesContent: false,
  logLevel: "warning",
}

/** src/cli.ts imports ./commands/<name>.js: in the build, lib/<name>.mjs beside it */
const commandsInLib = {
  name: "commands-in-lib",
  setup(b) {
    b.onResolve({ filter: /^\.\/commands\/[a-z-]+\.js$/ }, (args) => ({
      path: args.path.replace(/^\.\/commands\/(.+)\.js$/, "./lib/$1.mjs"),
      external: true,
    }))
  },
}

/** Builds dist/; returns each esbuild build's metafile (test/built-cli.test.ts reads what each command loads). */
export async function buildCli() {
  await rm(`${dist}lib`, { recursive: true, force: true })
  const builds = await Promise.all([
    build({
      ...options,
      entryPoints: [here("../src/cli.ts")],
      outfile: `${dist}switchboard.mjs`,
      banner: { js: "#!/usr/bin/env node" },
      plugins: [commandsInLib],
    }),
    ...Object.entries(groups).map(([group, names]) =>
      build({
        ...options,
        entryPoints: Object.fromEntries(names.map((name) => [name, here(`../src/commands/${name}.ts`)])),
        // what a command loads only when it needs it (the database driver it opens) in files of its own
        splitting: true,
        outdir: `${dist}lib`,
        outExtension: { ".js": ".mjs" },
        chunkNames: `${group}-[hash]`,
        define: { SWITCHBOARD_BUILT: "true" },
        metafile: true,
      }),
    ),
  ])
  const worker = (entry, source) =>
    bundleWorker(build, {
      entry: here(entry),
      external,
      generatedBy: "scripts/build-cli.mjs",
      source,
      rebuild: "pnpm build",
    })
  await writeOutput(
    `${dist}pool-worker.mjs`,
    await worker(
      "../../../packages/runtime-quickjs/src/node/pool-worker.ts",
      "runtime-quickjs/src/node/pool-worker.ts",
    ),
  )
  await writeOutput(
    `${dist}demo-server.mjs`,
    await worker("../../../fixtures/src/bin/demo-server.ts", "fixtures/src/bin/demo-server.ts"),
  )
  await rm(`${dist}drizzle`, { recursive: true, force: true })
  for (const dialect of ["sqlite", "postgres"])
    await cp(here(`../../../drizzle/${dialect}`), `${dist}drizzle/${dialect}`, { recursive: true })
  await writeOutput(`${dist}package.json`, `${JSON.stringify(await manifest(), null, 2)}\n`)
  return builds.flatMap((result) => (result.metafile ? [result.metafile] : []))
}

/** The package `npm pack apps/server/dist` makes: its run-time dependencies at the versions this repository locks. */
async function manifest() {
  const server = JSON.parse(await readFile(here("../package.json"), "utf8"))
  const root = JSON.parse(await readFile(here("../../../package.json"), "utf8"))
  return {
    name: "switchboard",
    version: server.version ?? "0.0.0",
    description: "A sandboxed code-execution service for AI agents (built CLI and server)",
    type: "module",
    bin: { switchboard: "switchboard.mjs" },
    engines: root.engines,
    dependencies: Object.fromEntries(external.map((name) => [name, server.dependencies[name]])),
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await buildCli()
