/**
 * core's public face stays narrow: its index holds the contracts every package shares (at most 140 names), and each
 * concept is a subpath entry read as a namespace (`import * as Catalog from "@switchboard/core/catalog"`). Every
 * name of every entry is used somewhere outside core; a name only core uses is imported from its module instead.
 */
import { readFileSync, readdirSync, statSync } from "node:fs"
import { join, resolve } from "node:path"
import ts from "typescript"
import { expect, it } from "vitest"

const repo = resolve(import.meta.dirname, "../../..")
const core = resolve(import.meta.dirname, "..")
const MAX_INDEX_NAMES = 140

/** Each entry of core's package.json (".", "./catalog", …) and the names it exports. */
const coreEntries = () => {
  const exports = JSON.parse(readFileSync(join(core, "package.json"), "utf8")).exports as Record<string, string>
  const files = Object.fromEntries(Object.entries(exports).map(([entry, file]) => [entry, resolve(core, file)]))
  const program = ts.createProgram(Object.values(files), {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    noEmit: true,
  })
  const checker = program.getTypeChecker()
  const names = (file: string) => {
    const source = program.getSourceFile(file)
    const symbol = source && checker.getSymbolAtLocation(source)
    if (!symbol) throw new Error(`${file} did not parse`)
    return checker.getExportsOfModule(symbol).map((s) => s.name)
  }
  return Object.entries(files).map(([entry, file]) => ({
    specifier: entry === "." ? "@switchboard/core" : `@switchboard/core/${entry.slice(2)}`,
    names: names(file),
  }))
}

const sourceFiles = (dir: string): string[] =>
  readdirSync(dir).flatMap((entry) => {
    if (entry === "node_modules" || entry.startsWith(".") || entry === "dist") return []
    const path = join(dir, entry)
    if (statSync(path).isDirectory()) return sourceFiles(path)
    return /\.(ts|tsx|mts)$/.test(entry) && !entry.endsWith(".d.ts") ? [path] : []
  })

/** Every `specifier name` that a file outside core imports, or reads through a namespace import of its entry. */
const usedOutsideCore = () => {
  const used = new Set<string>()
  const roots = ["packages", "apps", "bench", "fixtures", "scripts"].map((d) => join(repo, d))
  const files = roots.flatMap((root) => (statSync(root, { throwIfNoEntry: false }) ? sourceFiles(root) : []))
  for (const file of files) {
    if (file.startsWith(`${core}/`)) continue
    const text = readFileSync(file, "utf8")
    if (!text.includes("@switchboard/core")) continue
    const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true)
    const stars = new Map<string, string>() // local namespace -> specifier
    const named = new Map<string, string>() // local name of `Services` and the like -> "specifier name"
    for (const statement of sf.statements) {
      if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) continue
      const specifier = statement.moduleSpecifier.text
      if (!specifier.startsWith("@switchboard/core")) continue
      const bindings = statement.importClause?.namedBindings
      if (bindings && ts.isNamespaceImport(bindings)) stars.set(bindings.name.text, specifier)
      if (bindings && ts.isNamedImports(bindings))
        for (const element of bindings.elements) {
          const name = (element.propertyName ?? element.name).text
          used.add(`${specifier} ${name}`)
          named.set(element.name.text, `${specifier} ${name}`)
        }
    }
    const visit = (node: ts.Node) => {
      if (ts.isPropertyAccessExpression(node) || ts.isQualifiedName(node)) {
        const left = ts.isPropertyAccessExpression(node) ? node.expression : node.left
        const right = ts.isPropertyAccessExpression(node) ? node.name : node.right
        if (ts.isIdentifier(left) && stars.has(left.text)) used.add(`${stars.get(left.text)} ${right.text}`)
        if (ts.isIdentifier(left) && named.has(left.text)) used.add(`${named.get(left.text)}.${right.text}`)
      }
      ts.forEachChild(node, visit)
    }
    visit(sf)
  }
  return used
}

const entries = coreEntries()
const used = usedOutsideCore()

it(`core's index has at most ${MAX_INDEX_NAMES} names`, () => {
  const index = entries.find((entry) => entry.specifier === "@switchboard/core")
  expect(index?.names.length).toBeLessThanOrEqual(MAX_INDEX_NAMES)
})

it("every name of every entry of core is used outside core", () => {
  const unused = entries.flatMap(({ specifier, names }) =>
    names.map((name) => `${specifier} ${name}`).filter((name) => !used.has(name)),
  )
  expect(unused).toEqual([])
})

it("every service and layer in core's Services is used outside core", () => {
  const services = readFileSync(join(core, "src/services/index.ts"), "utf8")
  const names = [...services.matchAll(/export (?:type )?\{([^}]*)\}/g)].flatMap((m) =>
    (m[1] ?? "").split(",").map((n) => n.trim()),
  )
  expect(names.length).toBeGreaterThan(0)
  expect(names.filter((name) => name && !used.has(`@switchboard/core Services.${name}`))).toEqual([])
})
