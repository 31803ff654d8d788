import { readdir, readFile } from "node:fs/promises"
import { builtinModules } from "node:module"
import { join } from "node:path"
import { expect, test } from "vitest"

const sourceDir = new URL("../src/", import.meta.url).pathname

// src/node/ is the Node-only entry (the worker pool); nothing outside it may import it.
const nodeOnly = (file: string) => file.startsWith("node/")

test("src imports no Node built-in outside src/node: runScript must also run on Cloudflare Workers", async () => {
  const files = (await readdir(sourceDir, { recursive: true })).filter(
    (file) => file.endsWith(".ts") && !nodeOnly(file),
  )
  const builtins = new Set(builtinModules)
  const offenders: string[] = []
  for (const file of files) {
    const text = await readFile(join(sourceDir, file), "utf8")
    for (const match of text.matchAll(/from\s+"([^"]+)"|import\(\s*"([^"]+)"\s*\)/g)) {
      const specifier = match[1] ?? match[2] ?? ""
      if (specifier.startsWith("node:") || builtins.has(specifier)) offenders.push(`${file}: ${specifier}`)
      if (/(^|\/)node\//.test(specifier) || specifier.endsWith("/node")) offenders.push(`${file}: ${specifier}`)
    }
    if (/\b(process|Buffer|require)\s*[.(]/.test(text.replace(/\/\/.*|\/\*[\s\S]*?\*\//g, "")))
      offenders.push(`${file}: Node global`)
  }
  expect(offenders).toEqual([])
})
