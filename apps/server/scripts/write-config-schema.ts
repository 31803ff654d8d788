/**
 * Writes the JSON Schema of switchboard.config.json to dist/switchboard.config.schema.json (a build output, never
 * committed), generated from the zod definitions in src/config/config-schema.ts. A config file points at it with
 * "$schema" so editors complete it; `switchboard config schema` prints the same text.
 */
import { mkdirSync, writeFileSync } from "node:fs"
import { configJsonSchema } from "../src/config/config-schema.js"

const dist = new URL("../dist/", import.meta.url)
mkdirSync(dist, { recursive: true })
writeFileSync(new URL("switchboard.config.schema.json", dist), `${JSON.stringify(configJsonSchema(), null, 2)}\n`)
