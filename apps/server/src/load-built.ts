/**
 * How the built CLI (dist/switchboard.mjs) loads a command's bundle, dist/lib/<group>.cjs: through V8's code cache,
 * lib/<group>.cjs.cache. Node would compile the whole bundle again on every start, and Node 20 has no API that
 * caches what it compiled for an ES module (Node 22's module.enableCompileCache does), so the bundle is CommonJS,
 * compiled here as a vm.Script with the cache. A cache that is missing or
 * that V8 rejects (another Node version, other V8 flags) is written again after the bundle has run its top level,
 * when the folder is writable; the build writes the first (scripts/build-cli.mjs). Only the build uses this module.
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { Script, constants } from "node:vm"

/** `lib`: the folder of the bundles, when the caller is not dist/switchboard.mjs (another group's bundle, in it) */
export const loadBuilt = (group: string, lib?: string): Record<string, unknown> => {
  const file =
    lib === undefined ? fileURLToPath(new URL(`./lib/${group}.cjs`, import.meta.url)) : join(lib, `${group}.cjs`)
  const cacheFile = `${file}.cache`
  const cachedData = existsSync(cacheFile) ? readFileSync(cacheFile) : undefined
  // CommonJS's own wrapper, so that the bundle's require works as a file's (the build turns every import() into a
  // require(): a function restored from the cache loses the dynamic-import callback on Node 20)
  const script = new Script(
    `(function (exports, require, module, __filename, __dirname) {${readFileSync(file, "utf8")}\n})`,
    { filename: file, cachedData, importModuleDynamically: constants.USE_MAIN_CONTEXT_DEFAULT_LOADER },
  )
  const module = { exports: {} as Record<string, unknown> }
  script.runInThisContext()(module.exports, createRequire(file), module, file, dirname(file))
  if (cachedData === undefined || script.cachedDataRejected) {
    try {
      // after the top level ran, the cache holds the functions it compiled as well
      writeFileSync(`${cacheFile}.${process.pid}`, script.createCachedData())
      renameSync(`${cacheFile}.${process.pid}`, cacheFile)
    } catch {
      // an install this user cannot write to: every start compiles, as without a cache
    }
  }
  return module.exports
}
