/** GitHub's official spec as published (@octokit/openapi): every operation becomes a tool, names deterministic and unique. */
import { readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { describe, expect, it } from "vitest"
import { compileSpec, parseSpec } from "../src/index.js"

const GITHUB_SPEC = createRequire(import.meta.url).resolve("@octokit/openapi/generated/api.github.com.json")
const text = readFileSync(GITHUB_SPEC, "utf8")
const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"]

describe("GitHub's REST API spec", () => {
  const doc = parseSpec(text, GITHUB_SPEC)
  const compiled = compileSpec(doc)

  it("makes every operation a tool, named by its operationId, each name once", () => {
    const operationIds = Object.values(doc.paths as Record<string, Record<string, { operationId?: string }>>).flatMap(
      (item) => METHODS.flatMap((m) => (item[m] ? [item[m]!.operationId] : [])),
    )
    expect(operationIds).toHaveLength(1223)
    expect(compiled.tools.map((t) => t.name)).toEqual(operationIds)
    expect(new Set(compiled.tools.map((t) => t.name)).size).toBe(1223)
  })

  it("gives the same names and schemas on a second compile", () => {
    const again = compileSpec(parseSpec(text, GITHUB_SPEC))
    expect(JSON.stringify(again)).toBe(JSON.stringify(compiled))
  })

  it("declares repos/get's answer as the full-repository definition, stored once", () => {
    const get = compiled.tools.find((t) => t.name === "repos/get")!
    expect(get.outputSchema).toEqual({ $ref: "#/$defs/full-repository" })
    expect(get.inputSchema).toMatchObject({ required: ["owner", "repo"] })
    expect(get.binding).toMatchObject({
      method: "get",
      path: "/repos/{owner}/{repo}",
      server: "https://api.github.com",
    })
    expect(compiled.definitions["full-repository"]).toMatchObject({ type: "object" })
  })

  it("keeps shared schemas apart from the tools: no tool row carries a component schema", () => {
    const rows = JSON.stringify(compiled.tools)
    expect(rows).not.toContain("#/components/")
    // the definitions the tools reach, once each: far less than the dereferenced document (73 MB)
    expect(JSON.stringify(compiled.definitions).length).toBeLessThan(2_000_000)
    expect(rows.length).toBeLessThan(4_000_000)
  })

  it("spreads issues/create's JSON body beside its path parameters", () => {
    const create = compiled.tools.find((t) => t.name === "issues/create")!
    expect(create.inputSchema).toMatchObject({ required: ["owner", "repo", "title"] })
    expect(create.binding.body).toMatchObject({ mediaType: "application/json", arg: null })
    expect(create.annotations).toBeNull()
  })
})
