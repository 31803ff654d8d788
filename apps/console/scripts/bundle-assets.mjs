// dist/web (vite's build) as one module, dist/assets.mjs, exporting { "/": index.html, "/assets/<hashed>": … }: what
// @switchboard/api's createApp takes as `console`. A module, not files read at run time, so that the Node host's bundle and the
// Worker's both carry the console with no file system and no asset binding.
import { readFileSync, readdirSync, writeFileSync } from "node:fs"
import { fileURLToPath } from "node:url"

const web = fileURLToPath(new URL("../dist/web/", import.meta.url))
const types = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
}
const typeOf = (name) => {
  const type = types[name.slice(name.lastIndexOf("."))]
  if (!type) throw new Error(`the console's build emitted ${name}, which no content type here covers`)
  return type
}
const files = { "/": { body: readFileSync(`${web}index.html`, "utf8"), contentType: typeOf("index.html") } }
for (const name of readdirSync(`${web}assets`))
  files[`/assets/${name}`] = { body: readFileSync(`${web}assets/${name}`, "utf8"), contentType: typeOf(name) }
const out = fileURLToPath(new URL("../dist/", import.meta.url))
writeFileSync(`${out}assets.mjs`, `export const consoleAssets = ${JSON.stringify(files)}\n`)
writeFileSync(
  `${out}assets.d.mts`,
  'import type { ConsoleAssets } from "@switchboard/api"\nexport declare const consoleAssets: ConsoleAssets\n',
)
