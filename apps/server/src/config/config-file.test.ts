import { readFileSync } from "node:fs"
import { Ajv2020 } from "ajv/dist/2020.js"
import { describe, expect, it } from "vitest"
import { hideVariables, readConfigText } from "./config-file.js"
import { configJsonSchema } from "./config-schema.js"

const example = readFileSync(new URL("../../examples/switchboard.config.json", import.meta.url), "utf8")
const exampleEnv = { CONTRACT_PORT: "8931", CONTRACT_TOKEN: "s3cret-token-value" }

const problemsOf = (text: string, env: Record<string, string> = {}) => {
  const loaded = readConfigText("switchboard.config.json", text, env)
  return loaded.ok ? [] : loaded.problems
}

describe("switchboard.config.json", () => {
  it("reads the README's example, with ${NAME} taken from the environment anywhere in a string", () => {
    const loaded = readConfigText("example.json", example, exampleEnv)
    if (!loaded.ok) throw new Error(loaded.problems.join("\n"))
    expect(loaded.config.server).toEqual({ port: 4747, db: "./.switchboard/config-example.db", allowStdio: true })
    expect(loaded.config.limits).toEqual({ timeoutMs: 20000, maxToolCalls: 200 })
    expect(loaded.config.policies).toEqual([
      { pattern: "contract.crash", action: "block", reason: "it takes the upstream down" },
      { pattern: "contract.echo", action: "require_approval", reason: "an example: a person approves each echo" },
    ])
    expect(loaded.config.approvals).toEqual({ enabled: true, timeout: "1h" })
    expect((loaded.config.sources?.[1] as { transport?: unknown } | undefined)?.transport).toEqual({
      type: "http",
      url: "http://127.0.0.1:8931/mcp",
      headers: { authorization: "Bearer s3cret-token-value" },
    })
  })

  it("names a missing variable and the field and line that use it, and never prints a value", () => {
    const problems = problemsOf(example, { CONTRACT_TOKEN: "s3cret-token-value" })
    expect(problems).toEqual([
      "switchboard.config.json:16:9: sources[1].transport.url: environment variable CONTRACT_PORT is not set",
    ])
    expect(problems.join("")).not.toContain("s3cret")
  })

  it("puts ${NAME} back in place of a variable's value in every problem, which names the field", () => {
    const text = `{
  "server": { "port": "\${PORT}" },
  "sources": [
    { "namespace": "gh", "kind": "mcp", "transport": { "type": "http", "url": "mcp.example.com/mcp?token=\${GH_TOKEN}" } }
  ]
}`
    // a message quotes a value as JSON: a " in it is escaped there
    const problems = problemsOf(text, { GH_TOKEN: "ghp_SECRET123", PORT: 'p"ss' })
    expect(problems).toEqual([
      'switchboard.config.json:2:15: server.port: server.port must be a whole number from 0 to 65535 (got "${PORT}")',
      expect.stringMatching(
        /^switchboard\.config\.json:4:\d+: sources\[0\]\.transport\.url: transport\.url is not a URL/,
      ),
    ])
    expect(problems.join("\n")).not.toMatch(/ghp_SECRET123|p\\"ss/)
  })

  it("names the line and column of a syntax error", () => {
    const problems = problemsOf('{\n  "sources": [\n    { "namespace": "a", }\n  ]\n}\n')
    expect(problems[0]).toMatch(/^switchboard\.config\.json:3:25: syntax: PropertyNameExpected/)
  })

  it("names an unknown field, top-level, in server settings, and in a source (which a POST would ignore)", () => {
    const source =
      '{ "namespace": "a", "kind": "mcp", "transport": { "type": "http", "url": "http://x/mcp", "header": {} } }'
    expect(problemsOf(`{\n  "source": []\n}`)).toEqual([
      'switchboard.config.json:2:3: source: unknown field "source" (did you mean "sources"?)',
    ])
    expect(problemsOf(`{\n  "server": { "prot": 1 }\n}`)).toEqual([
      'switchboard.config.json:2:15: server.prot: unknown field "prot" (did you mean "port"?)',
    ])
    expect(problemsOf(`{\n  "sources": [\n    ${source}\n  ]\n}`)).toEqual([
      'switchboard.config.json:3:94: sources[0].transport.header: unknown field "header" (did you mean "headers"?)',
    ])
    expect(problemsOf(`{\n  "sourcse": [],\n  "colour": 1\n}`)).toEqual([
      'switchboard.config.json:2:3: sourcse: unknown field "sourcse" (did you mean "sources"?)',
      'switchboard.config.json:3:3: colour: unknown field "colour"',
    ])
  })

  it("names a misspelt field with the one it probably is, also when the parse fails because that field is missing", () => {
    const text = `{
  "sources": [
    { "namespace": "a", "kind": "mcp", "transprot": { "type": "stdio", "command": "node" } },
    { "namespace": "b", "kind": "mcp", "transport": { "type": "stdio", "comand": "node" } }
  ],
  "policies": [{ "patern": "a.*", "action": "block" }]
}`
    // in the file's order: the missing field is reported at its object, which comes first
    expect(problemsOf(text)).toEqual([
      expect.stringMatching(/^switchboard\.config\.json:3:5: sources\[0\]\.transport: /),
      'switchboard.config.json:3:40: sources[0].transprot: unknown field "transprot" (did you mean "transport"?)',
      expect.stringMatching(/^switchboard\.config\.json:4:40: sources\[1\]\.transport\.command: /),
      'switchboard.config.json:4:72: sources[1].transport.comand: unknown field "comand" (did you mean "command"?)',
      'switchboard.config.json:6:18: policies[0].patern: unknown field "patern" (did you mean "pattern"?)',
    ])
  })

  it("names a field of the wrong type or value, a missing one, and a namespace declared twice, each with its line", () => {
    const text = `{
  "server": { "port": "http" },
  "limits": { "timeoutMs": "5s" },
  "sources": [
    { "namespace": "a", "kind": "mcp", "transport": { "type": "http", "url": "not a url" } },
    { "namespace": "b", "kind": "mcp" }
  ]
}`
    const problems = problemsOf(text)
    expect(problems).toContain(
      'switchboard.config.json:2:15: server.port: server.port must be a whole number from 0 to 65535 (got "http")',
    )
    expect(problems).toContain(
      'switchboard.config.json:3:15: limits.timeoutMs: limit "timeoutMs" must be a positive whole number',
    )
    expect(problems).toContain(
      "switchboard.config.json:5:71: sources[0].transport.url: transport.url is not a URL: " +
        "it needs http:// or https:// and a host, such as https://mcp.example.com/mcp",
    )
    expect(problems.find((p) => p.includes("sources[1]"))).toMatch(
      /^switchboard\.config\.json:6:5: sources\[1\]\.transport: /,
    )
    const twice = '{ "namespace": "a", "kind": "mcp", "transport": { "type": "stdio", "command": "x" } }'
    expect(problemsOf(`{\n  "sources": [\n    ${twice},\n    ${twice}\n  ]\n}`)).toEqual([
      'switchboard.config.json:4:7: sources[1].namespace: namespace "a" is declared twice',
    ])
  })

  it("takes retention in server settings, and names a malformed age or count with its line", () => {
    const loaded = readConfigText("f.json", '{ "server": { "retain": "7d", "retainExecutions": 100000 } }')
    expect(loaded.ok && loaded.config.server).toEqual({ retain: "7d", retainExecutions: 100_000 })
    expect(problemsOf('{\n  "server": { "retain": "7 days", "retainExecutions": -1 }\n}')).toEqual([
      "switchboard.config.json:2:15: server.retain: server.retain must be an age such as 7d, 12h or 90m",
      "switchboard.config.json:2:35: server.retainExecutions: server.retainExecutions must be a whole number from 1 to 9007199254740991 (got -1)",
    ])
    // 0 would keep none
    expect(problemsOf('{\n  "server": { "retainExecutions": 0 }\n}')).toEqual([
      "switchboard.config.json:2:15: server.retainExecutions: server.retainExecutions must be a whole number from 1 to 9007199254740991 (got 0)",
    ])
  })

  it("takes the bound on connections per client address, and names one that is not a whole number of at least 1", () => {
    const loaded = readConfigText("f.json", '{ "server": { "maxConnectionsPerAddress": 20 } }')
    expect(loaded.ok && loaded.config.server).toEqual({ maxConnectionsPerAddress: 20 })
    expect(problemsOf('{\n  "server": { "maxConnectionsPerAddress": 0 }\n}')).toEqual([
      "switchboard.config.json:2:15: server.maxConnectionsPerAddress: " +
        "server.maxConnectionsPerAddress must be a whole number from 1 to 9007199254740991 (got 0)",
    ])
  })

  it("takes policy rules as POST /v1/policies bodies, with ${NAME} from the environment, and names a bad rule's field and line", () => {
    const loaded = readConfigText(
      "f.json",
      '{ "policies": [{ "source": "${SB_NS}", "annotation": "destructiveHint", "action": "block" }] }',
      { SB_NS: "github" },
    )
    expect(loaded.ok && loaded.config.policies).toEqual([
      { source: "github", annotation: "destructiveHint", action: "block" },
    ])
    const text = `{
  "policies": [
    { "pattern": "fs.*", "action": "require_approval" },
    { "pattern": "fs.write file", "action": "deny" },
    { "source": "Not A Namespace", "action": "allow", "why": "x" }
  ]
}`
    expect(problemsOf(text)).toEqual([
      'switchboard.config.json:4:7: policies[1].pattern: "pattern" holds no whitespace; `*` stands for any run of characters',
      'switchboard.config.json:4:35: policies[1].action: "action" must be one of allow, require_approval, block',
      'switchboard.config.json:5:7: policies[2].source: "source" must be a namespace (got "Not A Namespace")',
      'switchboard.config.json:5:55: policies[2].why: unknown field "why"',
    ])
    expect(problemsOf('{\n  "policies": [{ "pattern": "${SB_UNSET}", "action": "block" }]\n}')).toEqual([
      "switchboard.config.json:2:18: policies[0].pattern: environment variable SB_UNSET is not set",
    ])
  })

  it("takes approvals: enabled and a timeout, and names a malformed timeout or an unknown field with its line", () => {
    const loaded = readConfigText("f.json", '{ "approvals": { "enabled": false, "timeout": "30m" } }')
    expect(loaded.ok && loaded.config.approvals).toEqual({ enabled: false, timeout: "30m" })
    expect(problemsOf('{\n  "approvals": { "timeout": "0h", "enable": true }\n}')).toEqual([
      "switchboard.config.json:2:18: approvals.timeout: approvals.timeout must be a duration such as 1h, 30m, 90s or 2d",
      'switchboard.config.json:2:35: approvals.enable: unknown field "enable" (did you mean "enabled"?)',
    ])
  })

  it("has a JSON Schema, generated from the same definitions, that takes the example and refuses an unknown field", () => {
    const ajv = new Ajv2020({ strict: false, validateFormats: false })
    const validate = ajv.compile(configJsonSchema())
    expect(validate(JSON.parse(example)), JSON.stringify(validate.errors)).toBe(true)
    const typo = JSON.parse(example)
    typo.sources[1].transport.header = {}
    expect(validate(typo)).toBe(false)
    expect(validate({ server: { port: "x" } })).toBe(false)
    expect(validate({ policies: [{ pattern: "fs.*", action: "deny" }] })).toBe(false)
    expect(validate({ policies: [{ pattern: "fs.*", action: "block", extra: 1 }] })).toBe(false)
    expect(validate({ approvals: { timeout: "1 hour" } })).toBe(false)
    expect(validate({ approvals: { enabled: false, timeout: "2d" } })).toBe(true)
  })
})

it("hideVariables puts ${NAME} back for a value as written, JSON-escaped and percent-encoded; shorter than minLength, it stays", () => {
  const variables = new Map([
    ["HOST", "db-7f3a.corp.example"],
    ["PASS", 'p "w/d'],
    ["PORT", "80"],
  ])
  const text = 'ENOTFOUND db-7f3a.corp.example; sent "p \\"w/d" and p%20%22w%2Fd; port 80'
  expect(hideVariables(text, variables, 4)).toBe('ENOTFOUND ${HOST}; sent "${PASS}" and ${PASS}; port 80')
  expect(hideVariables("port 80", variables)).toBe("port ${PORT}")
})
