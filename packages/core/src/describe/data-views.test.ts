import { describe, expect, it } from "vitest"
import { dataFields, dataToLevels } from "./data-views.js"

const user = {
  type: "object",
  description: "A user.",
  properties: { login: { type: "string" }, id: { type: "integer" }, site_admin: { type: "boolean" } },
  required: ["login", "id"],
}

const issue = {
  type: "object",
  properties: {
    number: { type: "integer" },
    title: { type: "string" },
    user: { $ref: "#/$defs/user", nullable: true },
    labels: { type: "array", items: { anyOf: [{ type: "string" }, { $ref: "#/$defs/label" }] } },
    head: {
      type: "object",
      properties: { sha: { type: "string" }, repo: { $ref: "#/$defs/repo" } },
      required: ["sha"],
    },
  },
  required: ["number", "title", "user"],
  additionalProperties: false,
  $defs: {
    user,
    label: { type: "object", properties: { name: { type: "string" }, color: { type: "string" } } },
    repo: {
      type: "object",
      properties: { full_name: { type: "string" }, owner: { $ref: "#/$defs/user" } },
      required: ["full_name"],
    },
  },
}

describe("dataToLevels", () => {
  it("keeps the first level's fields whole and writes a deeper object as a record naming its fields", () => {
    const view = dataToLevels(issue, 1)
    expect(view.cut).toBe(true)
    expect(view.schema).toMatchObject({
      type: "object",
      required: ["number", "title", "user"],
      properties: {
        number: { type: "integer" },
        user: { anyOf: [{ type: "object", description: "fields: login, id, site_admin" }, { type: "null" }] },
        labels: { type: "array", items: { anyOf: [{ type: "string" }, { type: "object" }] } },
        head: { type: "object", description: "fields: sha, repo" },
      },
    })
    // a cut object keeps nothing that would close or constrain it
    const head = (view.schema as { properties: { head: Record<string, unknown> } }).properties.head
    expect(Object.keys(head).sort()).toEqual(["description", "type"])
  })

  it("follows references level by level, and says nothing was cut when nothing was", () => {
    const two = dataToLevels(issue, 2)
    expect(two.schema).toMatchObject({
      properties: {
        head: {
          properties: { sha: { type: "string" }, repo: { type: "object", description: "fields: full_name, owner" } },
          required: ["sha"],
        },
      },
    })
    expect(dataToLevels(issue, 3).cut).toBe(true)
    expect(dataToLevels(issue, 4).cut).toBe(false)
    expect(dataToLevels({ type: "array", items: { type: "string" } }, 1).cut).toBe(false)
  })

  it("counts the fields past twelve, and ends a reference cycle that passes through no object", () => {
    const wide = { type: "object", properties: Object.fromEntries([..."abcdefghijklmn"].map((k) => [k, {}])) }
    const view = dataToLevels({ type: "object", properties: { wide } }, 1)
    expect(view.schema).toMatchObject({
      properties: { wide: { description: "fields: a, b, c, d, e, f, g, h, i, j, k, l, … (14)" } },
    })
    const loop = { $ref: "#/$defs/A", $defs: { A: { anyOf: [{ $ref: "#/$defs/B" }] }, B: { $ref: "#/$defs/A" } } }
    expect(dataToLevels(loop, 2).schema).toMatchObject({ anyOf: [{}] })
  })
})

describe("dataFields", () => {
  it("keeps only the named fields, through references, nullable ones and array items", () => {
    const { $defs, ...item } = issue
    const view = dataFields({ type: "array", items: item, $defs }, ["number", "user.login", "head.sha", "labels.name"])
    expect(view.unmatched).toEqual([])
    expect(view.schema).toMatchObject({
      type: "array",
      items: {
        type: "object",
        properties: {
          number: { type: "integer" },
          user: {
            anyOf: [
              { type: "object", properties: { login: { type: "string" } }, required: ["login"] },
              { type: "null" },
            ],
          },
          head: { properties: { sha: { type: "string" } }, required: ["sha"] },
          labels: { items: { anyOf: [{ type: "string" }, { properties: { name: { type: "string" } } }] } },
        },
        required: ["number", "user"],
      },
    })
    // an object that closed itself to other keys is open once fields are dropped
    expect(JSON.stringify(view.schema)).not.toContain("additionalProperties")
  })

  it("keeps a field named whole with its references, resolved against the root's definitions", () => {
    const view = dataFields(issue, ["head.repo"])
    expect(view.schema).toMatchObject({
      properties: { head: { properties: { repo: { $ref: "#/$defs/repo" } }, required: [] } },
      $defs: issue.$defs,
    })
  })

  it("names the fields no object declares, and takes a field its additional properties admit", () => {
    const map = { type: "object", properties: { a: { type: "string" } }, additionalProperties: { type: "number" } }
    const view = dataFields(map, ["a", "b", "c.d"])
    expect(view.unmatched).toEqual(["c.d"])
    expect(view.schema).toMatchObject({ properties: { a: { type: "string" }, b: { type: "number" } } })
    expect(dataFields(issue, ["nope", "head.nope"]).unmatched).toEqual(["nope", "head.nope"])
  })

  it("keeps a field named __proto__ as a plain key", () => {
    const schema = JSON.parse('{"type": "object", "properties": {"__proto__": {"type": "string"}, "x": {}}}')
    const view = dataFields(schema, ["__proto__"]) as { schema: { properties: Record<string, unknown> } }
    expect(Object.hasOwn(view.schema.properties, "__proto__")).toBe(true)
    expect(Object.getPrototypeOf(view.schema.properties)).toBe(Object.prototype)
  })
})
