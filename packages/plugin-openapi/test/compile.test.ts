/** Spec -> tools, on the fixture service's spec as written and on small specs for each rule. */
import { PETS_SPEC_YAML } from "@switchboard/fixtures"
import { describe, expect, it } from "vitest"
import { compileSpec, parseSpec } from "../src/index.js"
import type { CompiledSpec } from "../src/index.js"

const compile = (text: string) => compileSpec(parseSpec(text, "spec.inline"))
const tool = (compiled: CompiledSpec, name: string) => {
  const found = compiled.tools.find((t) => t.name === name)
  if (!found) throw new Error(`no tool ${name}: ${compiled.tools.map((t) => t.name).join(", ")}`)
  return found
}
const spec = (paths: object, extra: object = {}) =>
  JSON.stringify({ openapi: "3.0.3", info: { title: "t", version: "1" }, paths, ...extra })

describe("the fixture service's spec", () => {
  const pets = compile(PETS_SPEC_YAML)

  it("makes one tool per operation, named by operationId, else method and path", () => {
    expect(pets.tools.map((t) => t.name)).toEqual([
      "listPets",
      "createPet",
      "getPet",
      "replacePet",
      "delete_pets_petId",
      "getPetPhoto",
      "getPetNotes",
      "recordVisit",
      "uploadFile",
      "getLabels",
      "getTree",
      "slow",
      "getCounts",
      "echoRequest",
      "whoamiBearer",
      "whoamiBasic",
      "whoamiHeaderKey",
      "whoamiQueryKey",
      "whoamiCookieKey",
      "whoamiOauth",
    ])
  })

  it("describes a tool by its summary and description", () => {
    expect(tool(pets, "listPets").description).toBe("List pets\n\nPets, filtered by tag, kind and age.")
    expect(tool(pets, "getPetPhoto").description).toBeNull()
  })

  it("merges path-level, operation-level and referenced parameters with the JSON body's properties", () => {
    expect(tool(pets, "listPets").inputSchema).toEqual({
      type: "object",
      properties: {
        tags: { type: "array", items: { type: "string" }, description: "only pets with one of these tags" },
        ids: { type: "array", items: { type: "integer" } },
        filter: { type: "object", properties: { kind: { type: "string" }, minAge: { type: "integer" } } },
        limit: { type: "integer", minimum: 1, maximum: 100 },
        "X-Request-Id": { type: "string" },
      },
    })
    const create = tool(pets, "createPet")
    expect(create.inputSchema).toMatchObject({ required: ["name", "kind"] })
    expect(Object.keys((create.inputSchema as { properties: object }).properties)).toEqual([
      "name",
      "kind",
      "tags",
      "age",
    ])
    expect(create.binding.body).toEqual({
      mediaType: "application/json",
      arg: null,
      properties: ["name", "kind", "tags", "age"],
      required: true,
    })
    expect(tool(pets, "getPet").binding.params).toEqual([
      { name: "petId", in: "path", arg: "petId", style: "simple", explode: false },
    ])
  })

  it("puts a body whose property has a parameter's name under `body`", () => {
    const replace = tool(pets, "replacePet")
    expect(replace.inputSchema).toEqual({
      type: "object",
      properties: {
        petId: { type: "integer" },
        body: {
          type: "object",
          required: ["petId", "name"],
          properties: { petId: { type: "integer" }, name: { type: "string" } },
        },
      },
      required: ["petId", "body"],
    })
    expect(replace.binding.body).toMatchObject({ arg: "body" })
  })

  it("declares the 2xx JSON answer as the output, its component schemas stored once as shared definitions", () => {
    expect(tool(pets, "getPet").outputSchema).toEqual({ $ref: "#/$defs/Pet" })
    expect(tool(pets, "listPets").outputSchema).toEqual({ type: "array", items: { $ref: "#/$defs/Pet" } })
    expect(tool(pets, "getPetNotes").outputSchema).toBeNull()
    expect(tool(pets, "getPetPhoto").outputSchema).toBeNull()
    expect(Object.keys(pets.definitions).sort()).toEqual(["NewPet", "Node", "Pet"])
    expect(pets.definitions.Node).toEqual({
      type: "object",
      required: ["name", "children"],
      properties: { name: { type: "string" }, children: { type: "array", items: { $ref: "#/$defs/Node" } } },
    })
  })

  it("annotates by method: GET read-only, PUT and DELETE destructive, POST neither", () => {
    expect(tool(pets, "getPet").annotations).toEqual({ readOnlyHint: true })
    expect(tool(pets, "replacePet").annotations).toEqual({ destructiveHint: true })
    expect(tool(pets, "delete_pets_petId").annotations).toEqual({ destructiveHint: true })
    expect(tool(pets, "createPet").annotations).toBeNull()
  })

  it("binds query styles, forms, multipart and security as declared", () => {
    expect(tool(pets, "listPets").binding.params.map(({ name, style, explode }) => [name, style, explode])).toEqual([
      ["tags", "form", true],
      ["ids", "form", false],
      ["filter", "deepObject", false],
      ["limit", "form", true],
      ["X-Request-Id", "simple", false],
    ])
    expect(tool(pets, "recordVisit").binding.body?.mediaType).toBe("application/x-www-form-urlencoded")
    expect(tool(pets, "uploadFile").binding.body?.mediaType).toBe("multipart/form-data")
    // a file is typed as what a script passes for one: text, or bytes as base64
    expect((tool(pets, "uploadFile").inputSchema as { properties: { file: unknown } }).properties.file).toMatchObject({
      anyOf: [{ type: "string" }, { type: "object", required: ["base64"] }],
    })
    expect(tool(pets, "whoamiBasic").binding.security).toEqual([[{ name: "basicAuth", type: "http", scheme: "basic" }]])
    expect(tool(pets, "getPet").binding.security.map((alt) => alt.map((s) => s.name))).toEqual([
      ["bearerAuth"],
      ["apiKeyHeader"],
      [],
    ])
    // an oauth2 scheme: its flows, and the scopes its operations ask of it (an inline spec's relative URL as written)
    expect(tool(pets, "whoamiOauth").binding.security).toEqual([
      [
        {
          name: "oauth",
          type: "oauth2",
          flows: { clientCredentials: { tokenUrl: "/oauth/token", offered: ["pets.read"] } },
          scopes: ["pets.read"],
        },
      ],
    ])
  })
})

describe("rules on small specs", () => {
  it("brings OpenAPI 3.0's nullable and boolean exclusive bounds to JSON Schema", () => {
    const compiled = compile(
      spec(
        {
          "/n": {
            get: {
              operationId: "n",
              parameters: [
                { name: "a", in: "query", schema: { type: "string", nullable: true, example: "x" } },
                { name: "b", in: "query", schema: { type: "integer", minimum: 0, exclusiveMinimum: true } },
                { name: "c", in: "query", schema: { $ref: "#/components/schemas/C", nullable: true } },
              ],
              responses: {},
            },
          },
        },
        { components: { schemas: { C: { type: "string", enum: ["x"], nullable: true } } } },
      ),
    )
    expect(compiled.tools[0]!.inputSchema).toEqual({
      type: "object",
      properties: {
        a: { type: ["string", "null"] },
        b: { type: "integer", exclusiveMinimum: 0 },
        c: { $ref: "#/$defs/C" },
      },
    })
    expect(compiled.definitions.C).toEqual({ type: ["string", "null"], enum: ["x", null] })
  })

  it("makes names unique deterministically", () => {
    const op = (operationId?: string) => ({ ...(operationId ? { operationId } : {}), responses: {} })
    const compiled = compile(
      spec({ "/a": { get: op("dup"), post: op("dup") }, "/a/": { get: op() }, "/a-": { get: op() } }),
    )
    expect(compiled.tools.map((t) => t.name)).toEqual(["dup", "dup_2", "get_a", "get_a_2"])
  })

  it("writes out a non-component reference in place, and a cycle through such references as {}", () => {
    const compiled = compile(
      spec({
        "/x": {
          get: {
            operationId: "x",
            responses: {
              "200": {
                description: "",
                content: {
                  "application/json": {
                    schema: { $ref: "#/paths/~1x/get/responses/200/content/application~1json/schema" },
                  },
                },
              },
            },
          },
        },
      }),
    )
    expect(compiled.tools[0]!.outputSchema).toEqual({})
  })

  it("keeps property names that are JavaScript's own (__proto__) as data", () => {
    const compiled = compile(
      '{"openapi":"3.1.0","paths":{"/p":{"post":{"operationId":"p","requestBody":{"content":{"application/json":{"schema":' +
        '{"type":"object","properties":{"__proto__":{"type":"string"}}}}}},"responses":{}}}}}',
    )
    const properties = (compiled.tools[0]!.inputSchema as { properties: Record<string, unknown> }).properties
    expect(Object.hasOwn(properties, "__proto__")).toBe(true)
    expect(Object.getPrototypeOf(properties)).toBe(Object.prototype)
  })
})

describe("Swagger 2.0, converted to OpenAPI 3 first", () => {
  const swagger = compile(
    JSON.stringify({
      swagger: "2.0",
      info: { title: "pets", version: "1" },
      host: "pets.example.com",
      basePath: "/v1",
      schemes: ["https"],
      consumes: ["application/json"],
      produces: ["application/json"],
      securityDefinitions: { key: { type: "apiKey", in: "header", name: "X-Key" }, basic: { type: "basic" } },
      security: [{ key: [] }],
      paths: {
        "/pets/{id}": {
          get: {
            operationId: "getPet",
            parameters: [
              { name: "id", in: "path", required: true, type: "integer" },
              { name: "tags", in: "query", type: "array", items: { type: "string" }, collectionFormat: "multi" },
            ],
            responses: { 200: { description: "the pet", schema: { $ref: "#/definitions/Pet" } } },
          },
        },
        "/pets": {
          post: {
            operationId: "addPet",
            security: [{ basic: [] }],
            parameters: [{ name: "body", in: "body", required: true, schema: { $ref: "#/definitions/Pet" } }],
            responses: { 201: { description: "added", schema: { $ref: "#/definitions/Pet" } } },
          },
        },
        "/upload": {
          post: {
            operationId: "upload",
            consumes: ["multipart/form-data"],
            parameters: [{ name: "file", in: "formData", type: "file" }],
            responses: { 200: { description: "ok" } },
          },
        },
      },
      definitions: {
        Pet: { type: "object", properties: { id: { type: "integer" }, name: { type: "string", "x-nullable": true } } },
      },
    }),
  )

  it("makes the same tools: parameters, body, form, declared output, server and security", () => {
    expect(tool(swagger, "getPet")).toMatchObject({
      inputSchema: {
        properties: { id: { type: "integer" }, tags: { type: "array", items: { type: "string" } } },
        required: ["id"],
      },
      outputSchema: { $ref: "#/$defs/Pet" },
      binding: {
        server: "https://pets.example.com/v1",
        params: [
          { name: "id", in: "path" },
          { name: "tags", in: "query", style: "form", explode: true },
        ],
        security: [[{ name: "key", type: "apiKey", in: "header", key: "X-Key" }]],
      },
    })
    expect(swagger.definitions.Pet).toEqual({
      type: "object",
      properties: { id: { type: "integer" }, name: { type: ["string", "null"] } },
    })
    expect(tool(swagger, "addPet").binding).toMatchObject({
      body: { mediaType: "application/json", arg: null, properties: ["id", "name"] },
      security: [[{ name: "basic", type: "http", scheme: "basic" }]],
    })
    expect(tool(swagger, "upload").binding.body).toMatchObject({
      mediaType: "multipart/form-data",
      properties: ["file"],
    })
  })
})

describe("specs that cannot be read, each named by place", () => {
  const problem = (text: string) => {
    try {
      compile(text)
    } catch (error) {
      return (error as Error).message
    }
    throw new Error("it compiled")
  }

  it("refuses a text that is neither JSON nor YAML", () => {
    expect(problem("{ not json")).toMatch(/^spec\.inline: the spec is not valid JSON/)
    expect(problem("key: [unclosed\n  - x: :")).toMatch(
      /^spec\.inline: the spec is neither JSON nor YAML: .* at line \d+/,
    )
    expect(problem("just a sentence")).toMatch(/neither JSON nor YAML describing an object/)
  })

  it("refuses a Swagger version other than 2.0", () => {
    expect(problem('{"swagger":"1.2","paths":{}}')).toBe("spec.inline swagger: Swagger 1.2 is not supported (2.0 is)")
  })

  it("names a dangling $ref by where it is", () => {
    expect(
      problem(
        spec({
          "/a": { get: { operationId: "a", parameters: [{ $ref: "#/components/parameters/nope" }], responses: {} } },
        }),
      ),
    ).toBe('paths./a.get.parameters[0]: $ref "#/components/parameters/nope" points at nothing')
    expect(
      problem(
        spec({
          "/a": {
            get: {
              responses: {
                "200": {
                  description: "",
                  content: { "application/json": { schema: { $ref: "#/components/schemas/Gone" } } },
                },
              },
            },
          },
        }),
      ),
    ).toBe(
      'paths./a.get.responses.200.content.application/json.schema: $ref "#/components/schemas/Gone" points at nothing',
    )
  })

  it("refuses a reference outside the document", () => {
    expect(problem(spec({ "/a": { get: { parameters: [{ $ref: "other.yaml#/p" }], responses: {} } } }))).toMatch(
      /^paths\.\/a\.get\.parameters\[0\]: \$ref "other\.yaml#\/p" points outside the document/,
    )
  })

  it("names parameters that collide", () => {
    const id = { name: "id", in: "query", schema: { type: "string" } }
    expect(problem(spec({ "/a": { get: { parameters: [id, id], responses: {} } } }))).toBe(
      'paths./a.get.parameters[1]: parameter "id" in query is declared twice (also at paths./a.get.parameters[0])',
    )
    // the same name in two locations is legal: the later one is named by its location
    const legal = compile(spec({ "/a": { get: { parameters: [id, { ...id, in: "header" }], responses: {} } } }))
    expect(legal.tools[0]!.binding.params.map((p) => p.arg)).toEqual(["id", "header_id"])
  })
})
