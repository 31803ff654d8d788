/**
 * core's public face stays narrow: at most 140 names at the top of its index, and every name it exports, at the top
 * or inside a namespace (`Catalog.createSqliteCatalogStore`), is imported somewhere outside core. A name only core
 * uses is imported from its module, not exported.
 */
import { readFileSync, readdirSync, statSync } from "node:fs"
import { join, resolve } from "node:path"
import ts from "typescript"
import { expect, it } from "vitest"

const repo = resolve(import.meta.dirname, "../../..")
const index = resolve(import.meta.dirname, "../src/index.ts")
const MAX_TOP_LEVEL_NAMES = 140

/** The index's names, and for each namespace the names inside it. */
const coreFace = () => {
  const program = ts.createProgram([index], {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    noEmit: true,
  })
  const checker = program.getTypeChecker()
  const source = program.getSourceFile(index)
  const moduleSymbol = source && checker.getSymbolAtLocation(source)
  if (!moduleSymbol) throw new Error("core's index did not parse")
  const namespaces = new Map<string, string[]>()
  const names = checker.getExportsOfModule(moduleSymbol).map((symbol) => {
    const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol
    if (target.flags & ts.SymbolFlags.ValueModule)
      namespaces.set(
        symbol.name,
        checker.getExportsOfModule(target).map((s) => s.name),
      )
    return symbol.name
  })
  return { names, namespaces }
}

const sourceFiles = (dir: string): string[] =>
  readdirSync(dir).flatMap((entry) => {
    if (entry === "node_modules" || entry.startsWith(".") || entry === "dist") return []
    const path = join(dir, entry)
    if (statSync(path).isDirectory()) return sourceFiles(path)
    return /\.(ts|tsx|mts)$/.test(entry) && !entry.endsWith(".d.ts") ? [path] : []
  })

/** Every `name` and `Namespace.name` of @switchboard/core that a file outside core imports or reads. */
const usedOutsideCore = () => {
  const used = new Set<string>()
  const roots = ["packages", "apps", "bench", "fixtures", "scripts"].map((d) => join(repo, d))
  const files = roots.flatMap((root) => (statSync(root, { throwIfNoEntry: false }) ? sourceFiles(root) : []))
  for (const file of files) {
    if (file.startsWith(join(repo, "packages/core/"))) continue
    const text = readFileSync(file, "utf8")
    if (!text.includes("@switchboard/core")) continue
    const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true)
    const local = new Map<string, string>() // local name -> core's name
    const stars = new Set<string>()
    for (const statement of sf.statements) {
      if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) continue
      if (statement.moduleSpecifier.text !== "@switchboard/core") continue
      const bindings = statement.importClause?.namedBindings
      if (bindings && ts.isNamespaceImport(bindings)) stars.add(bindings.name.text)
      if (bindings && ts.isNamedImports(bindings))
        for (const element of bindings.elements) {
          const name = (element.propertyName ?? element.name).text
          local.set(element.name.text, name)
          used.add(name)
        }
    }
    const visit = (node: ts.Node) => {
      if (ts.isPropertyAccessExpression(node) || ts.isQualifiedName(node)) {
        const left = ts.isPropertyAccessExpression(node) ? node.expression : node.left
        const right = ts.isPropertyAccessExpression(node) ? node.name : node.right
        if (ts.isIdentifier(left) && local.has(left.text)) used.add(`${local.get(left.text)}.${right.text}`)
        if (ts.isIdentifier(left) && stars.has(left.text)) used.add(right.text)
        const inner = ts.isPropertyAccessExpression(left) ? left : ts.isQualifiedName(left) ? left : undefined
        if (inner) {
          const innerLeft = ts.isPropertyAccessExpression(inner) ? inner.expression : inner.left
          const innerRight = ts.isPropertyAccessExpression(inner) ? inner.name : inner.right
          if (ts.isIdentifier(innerLeft) && stars.has(innerLeft.text)) used.add(`${innerRight.text}.${right.text}`)
        }
      }
      ts.forEachChild(node, visit)
    }
    visit(sf)
  }
  return used
}

const face = coreFace()
const used = usedOutsideCore()

it(`core's index has at most ${MAX_TOP_LEVEL_NAMES} names at its top`, () => {
  expect(face.names.length).toBeLessThanOrEqual(MAX_TOP_LEVEL_NAMES)
})

it("every name core exports is imported outside core", () => {
  expect(face.names.filter((name) => !used.has(name))).toEqual([])
})

it("every name inside core's namespaces is used outside core", () => {
  const unused = [...face.namespaces].flatMap(([namespace, members]) =>
    members.map((member) => `${namespace}.${member}`).filter((name) => !used.has(name)),
  )
  expect(unused).toEqual([])
})
