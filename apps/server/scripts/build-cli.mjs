// `pnpm build`: the CLI as built JavaScript in dist/, from the current sources, laid out as an npm package:
//   switchboard.mjs   the entry (src/cli.ts): it loads the bundle of the one command it runs from lib/
//   lib/<group>.cjs   a group of commands (src/commands/*.ts) with everything they use, our packages and npm's, and
//                     beside it V8's code cache of it (src/load-built.ts: CommonJS, so that Node 20 can use one)
//   pool-worker.mjs   the sandbox's worker thread (runtime-quickjs's src/node/pool-worker.ts)
//   grep-worker.mjs   the output search's worker thread (scripts/build-grep-worker.mjs writes it)
//   demo-server.mjs   `switchboard demo`'s MCP server (fixtures/src/bin/demo-server.ts)
//   drizzle/          the SQL migrations
//   package.json      name, bin, and the two packages it loads from node_modules at run time
// Not one split bundle of every command: esbuild assigns a file to the chunks of every entry that reaches it, and
// every command reaches all of @switchboard/core through its index, so `tools` loaded zod, the MCP SDK and the
// Postgres dialect it never runs. Built alone, a group is tree-shaken to what it uses (the packages declare
// "sideEffects": false); what it needs only sometimes (a database driver, the in-thread runtime, undici) sits behind
// a dynamic import, which esbuild turns into code that runs only when it is reached. better-sqlite3 is native and
// the QuickJS variant finds its .wasm beside its own module, so both stay external. Tests run it first
// too (test/support/global-setup.ts), so they never see a stale build.
import { build } from "esbuild"
import { spawnSync } from "node:child_process"
import { chmod, cp, readFile, rm } from "node:fs/promises"
import { resolve as resolvePath } from "node:path"
import { fileURLToPath } from "node:url"
import { bundleWorker, writeOutput } from "../../../scripts/bundle-worker.mjs"

const here = (path) => fileURLToPath(new URL(path, import.meta.url))
const dist = here("../dist/")
const external = ["better-sqlite3", "@jitl/quickjs-wasmfile-release-sync"]
// each group is one bundle: the commands that build a whole host share nearly all their code; the ones that only
// read the catalog are built alone, so that none carries another's code. With each, a harmless run of one of its
// commands: it loads the bundle, which writes its code cache. `modules`: other modules (src/, without .js) the
// group's bundle exports, for another group's import() of them (below, modulesInOtherGroups).
const groups = {
  host: {
    commands: ["serve", "run", "mcp"],
    modules: ["catalog-client/local-host"],
    warm: ["run", "-", "--db", "/nonexistent/switchboard.db"],
  },
  tools: { commands: ["tools"], warm: ["tools", "--db", "/nonexistent/switchboard.db"] },
  // the catalog's commands read it alone; what they do through a host (add a source, call a tool, decide an approval) is the host
  // bundle's catalog-client/local-host, loaded by import() when it is reached
  catalog: {
    commands: ["sources", "sources-login", "describe", "call", "executions", "policies", "approvals"],
    warm: ["sources", "list", "--db", "/nonexistent/switchboard.db"],
  },
  keys: { commands: ["keys"], warm: ["keys", "list", "--db", "/nonexistent/switchboard.db"] },
  config: { commands: ["config"], warm: ["config", "check", "/nonexistent/switchboard.config.json"] },
  completion: { commands: ["completion"], warm: ["completion", "bash"] },
}
const groupOf = Object.fromEntries(
  Object.entries(groups).flatMap(([group, { commands }]) => commands.map((name) => [name, group])),
)
/** src/<module> (absolute, without .js) -> the group whose bundle exports it */
const moduleGroup = Object.fromEntries(
  Object.entries(groups).flatMap(([group, { modules = [] }]) => modules.map((m) => [here(`../src/${m}`), group])),
)

const options = {
  bundle: true,
  platform: "node",
  target: "node20",
  // the ES module builds first: jsonc-parser's "main" is a UMD file whose require() calls esbuild cannot follow
  mainFields: ["module", "main"],
  external,
  legalComments: "none",
  // Minified but for names. With the code cache, serve to /healthz (bench/startup.ts --compare, medians of 10): 571
  // ms minified against 715 not minified in one run (Node still reads and hashes the text, and compiles a function
  // the cache lacks from it), 628 with names minified against 631 without in another; kept, a stack trace names its
  // functions. Node applies no source map to code compiled as a vm.Script (src/load-built.ts): the maps beside
  // each file are for reading a position by hand.
  minifyWhitespace: true,
  minifySyntax: true,
  sourcemap: "linked",
  sourcesContent: false,
  logLevel: "warning",
}

/**
 * The command line (src/cli/) imports ../commands/<name>.js where a command runs: in the build, the exports of
 * lib/<group>.cjs, loaded by src/load-built.ts
 */
const commandsInLib = {
  name: "commands-in-lib",
  setup(b) {
    b.onResolve({ filter: /^\.\.\/commands\/[a-z-]+\.js$/ }, (args) => {
      if (args.kind !== "dynamic-import")
        throw new Error(`${args.importer}: import ${args.path} by import(), where it runs`)
      return { path: /^\.\.\/commands\/(.+)\.js$/.exec(args.path)[1], namespace: "built-command" }
    })
    b.onLoad({ filter: /.*/, namespace: "built-command" }, (args) => ({
      contents: `module.exports = require(${JSON.stringify(here("../src/load-built.ts"))}).loadBuilt(${JSON.stringify(groupOf[args.path])})`,
      loader: "js",
      resolveDir: here("../src"),
    }))
  },
}

/**
 * An import() in one group of a module another group's bundle exports: that bundle, loaded by src/load-built.ts
 * from beside this one, in place of a second copy of the module and all it reaches (the host, for the catalog's
 * commands). A static import stays in the bundle: it would load the other group with this one.
 */
const modulesInOtherGroups = (group) => ({
  name: "modules-in-other-groups",
  setup(b) {
    b.onResolve({ filter: /^\.\.?\/.*\.js$/ }, (args) => {
      const owner = moduleGroup[resolvePath(args.resolveDir, args.path).replace(/\.js$/, "")]
      if (owner === undefined || owner === group || args.kind !== "dynamic-import") return undefined
      return { path: owner, namespace: "other-group" }
    })
    b.onLoad({ filter: /.*/, namespace: "other-group" }, (args) => ({
      // __dirname: lib/, where this bundle and the other are
      contents: `module.exports = require(${JSON.stringify(here("../src/load-built.ts"))}).loadBuilt(${JSON.stringify(args.path)}, __dirname)`,
      loader: "js",
      resolveDir: here("../src"),
    }))
  },
})

/** Builds dist/; returns each esbuild build's metafile (test/cli/built-cli.test.ts reads what each command loads). */
export async function buildCli() {
  await rm(`${dist}lib`, { recursive: true, force: true })
  const builds = await Promise.all([
    build({
      ...options,
      format: "esm",
      entryPoints: [here("../src/cli.ts")],
      outfile: `${dist}switchboard.mjs`,
      // commander is CommonJS, and requires Node's modules: an ES module has no require of its own
      banner: {
        js: '#!/usr/bin/env node\nimport { createRequire as __createRequire } from "node:module";\nconst require = __createRequire(import.meta.url);',
      },
      define: { SWITCHBOARD_VERSION: JSON.stringify(await packageVersion()) },
      plugins: [commandsInLib],
    }),
    ...Object.entries(groups).map(([group, { commands, modules = [] }]) =>
      build({
        ...options,
        format: "cjs",
        stdin: {
          contents: [...commands, ...modules.map((m) => `../${m}`)]
            .map((name) => `export * from "./${name}.js"`)
            .join("\n"),
          resolveDir: here("../src/commands"),
          sourcefile: `${group}-bundle-entry.ts`,
          loader: "ts",
        },
        outfile: `${dist}lib/${group}.cjs`,
        // ES modules' import.meta.url, in CommonJS
        define: { SWITCHBOARD_BUILT: "true", "import.meta.url": "__importMetaUrl" },
        // import() of what stays outside the bundle (node:http in the OTLP exporter) becomes require(): a function
        // V8 restores from the code cache loses the vm.Script's dynamic-import callback on Node 20, so a native
        // import() there throws ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING on every start but the one that wrote it
        supported: { "dynamic-import": false },
        banner: { js: 'var __importMetaUrl = require("node:url").pathToFileURL(__filename).href;' },
        metafile: true,
        plugins: [modulesInOtherGroups(group)],
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
  // also the package's second command, `switchboard-demo-server`: the demo's MCP server, for a stdio source anywhere
  await writeOutput(
    `${dist}demo-server.mjs`,
    `#!/usr/bin/env node\n${await worker("../../../fixtures/src/bin/demo-server.ts", "fixtures/src/bin/demo-server.ts")}`,
  )
  await chmod(`${dist}demo-server.mjs`, 0o755)
  await rm(`${dist}drizzle`, { recursive: true, force: true })
  for (const dialect of ["sqlite", "postgres"])
    await cp(here(`../../../drizzle/${dialect}`), `${dist}drizzle/${dialect}`, { recursive: true })
  await writeOutput(`${dist}package.json`, `${JSON.stringify(await manifest(), null, 2)}\n`)
  // runnable as ./apps/server/dist/switchboard.mjs (npm sets the bit on an installed bin itself)
  await chmod(`${dist}switchboard.mjs`, 0o755)
  for (const { warm } of Object.values(groups))
    spawnSync(process.execPath, [`${dist}switchboard.mjs`, ...warm], { stdio: "ignore" })
  return builds.flatMap((result) => (result.metafile ? [result.metafile] : []))
}

/** the built package's version: this package's own (`switchboard --version` prints it) */
async function packageVersion() {
  return JSON.parse(await readFile(here("../package.json"), "utf8")).version ?? "0.0.0"
}

/** The package `npm pack apps/server/dist` makes: its run-time dependencies at the versions this repository locks. */
async function manifest() {
  const server = JSON.parse(await readFile(here("../package.json"), "utf8"))
  const root = JSON.parse(await readFile(here("../../../package.json"), "utf8"))
  return {
    name: "switchboard",
    version: await packageVersion(),
    description: "A sandboxed code-execution service for AI agents (built CLI and server)",
    type: "module",
    bin: { switchboard: "switchboard.mjs", "switchboard-demo-server": "demo-server.mjs" },
    engines: root.engines,
    dependencies: Object.fromEntries(external.map((name) => [name, server.dependencies[name]])),
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await buildCli()
