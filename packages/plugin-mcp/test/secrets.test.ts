/** ARCHITECTURE.md: safety: a configured secret never reaches a message the plugin returns, whatever the source prints. */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { fixtureCommand, leakyServerScript, startEchoHeadersServer } from "@switchboard/fixtures"
import type { SourceHandle, SourcePlugin } from "@switchboard/core"
import { McpError, ErrorCode } from "@modelcontextprotocol/sdk/types.js"
import { createMcpPlugin } from "../src/node/index.js"
import { mergeConfig } from "../src/config.js"
import { redactConfig, scrubSecrets, secretFields } from "../src/config-secrets.js"
import { scrubResult } from "../src/scrub-result.js"
import type { McpSourceConfig } from "../src/config.js"
import { callFailureMessage } from "../src/invoke.js"
import type { McpConnection } from "../src/connection.js"

const SECRET = "tok-9f8e7d6c5b4a"
const source = (id: string, transport: unknown): SourceHandle => ({
  id,
  namespace: id,
  kind: "mcp",
  config: { transport },
})
const inline = (script: string, env: Record<string, string>) => ({
  type: "stdio",
  command: process.execPath,
  args: ["-e", script],
  env,
})

/** A minimal stdio MCP server that answers initialize, then leaks its token on stderr and in the error of every other request. */
const LEAKY_SERVER = leakyServerScript({ listsTools: false })

describe("scrubSecrets", () => {
  const http: McpSourceConfig = {
    transport: {
      type: "http",
      url: "https://bob:pa%24%24word@mcp.example/x?api_key=k3y-value&v=1",
      headers: { authorization: "Bearer abcd1234efgh", "x-team": "platform" },
    },
  }

  it("replaces env values of 4+ characters and leaves shorter ones", () => {
    const config: McpSourceConfig = {
      transport: { type: "stdio", command: "x", args: [], env: { TOKEN: SECRET, DEBUG: "1" } },
    }
    expect(scrubSecrets(config, `env TOKEN=${SECRET} DEBUG=1; again ${SECRET}`)).toBe(
      "env TOKEN=<redacted> DEBUG=1; again <redacted>",
    )
  })

  it("replaces header values, a bearer token on its own, URL userinfo and query values, encoded or not", () => {
    const text =
      "sent Bearer abcd1234efgh; token abcd1234efgh; team platform; user bob; password pa$$word or pa%24%24word; key k3y-value; v=1"
    expect(scrubSecrets(http, text)).toBe(
      "sent <redacted>; token <redacted>; team <redacted>; user bob; password <redacted> or <redacted>; key <redacted>; v=1",
    )
  })

  it("replaces a secret that contains another one whole", () => {
    const config: McpSourceConfig = {
      transport: { type: "stdio", command: "x", args: [], env: { A: "abcd", B: "abcdefgh" } },
    }
    expect(scrubSecrets(config, "abcdefgh abcd")).toBe("<redacted> <redacted>")
  })

  it("replaces a secret upper- or lower-cased, base64 or base64url (alone or inside longer base64), hex or percent-encoded", () => {
    const secret = "s3cret/Token+value?"
    const config: McpSourceConfig = { transport: { type: "stdio", command: "x", args: [], env: { TOKEN: secret } } }
    const bytes = Buffer.from(secret)
    const spellings = {
      upper: secret.toUpperCase(),
      lower: secret.toLowerCase(),
      base64: bytes.toString("base64"),
      base64url: bytes.toString("base64url"),
      hex: bytes.toString("hex"),
      HEX: bytes.toString("hex").toUpperCase(),
      percent: [...bytes].map((b) => `%${b.toString(16).padStart(2, "0")}`).join(""),
      basicAuth: Buffer.from(`user:${secret}`).toString("base64"),
      shifted: Buffer.from(`ab${secret}!`).toString("base64"),
    }
    for (const [name, spelling] of Object.entries(spellings)) {
      const scrubbed = scrubSecrets(config, `before ${spelling} after`)
      expect(scrubbed, name).toMatch(/^before .*<redacted>.* after$/)
      // what is left around the mark is at most the characters a neighbour shares with the secret
      expect(scrubbed.replace(/^before |<redacted>| after$/g, "").length, name).toBeLessThanOrEqual(8)
    }
  })

  it("leaves text alone when there is no config", () => {
    expect(scrubSecrets(undefined, "nothing to hide")).toBe("nothing to hide")
  })

  it("redactConfig hides the URL's userinfo and query values, keeping the query keys", () => {
    expect(redactConfig(http)).toEqual({
      transport: {
        type: "http",
        url: "https://<redacted>:<redacted>@mcp.example/x?api_key=<redacted>&v=<redacted>",
        headers: { authorization: "<redacted>", "x-team": "<redacted>" },
      },
    })
    expect(redactConfig({ transport: { type: "http", url: "http://h:8080/mcp", headers: {} } })).toEqual({
      transport: { type: "http", url: "http://h:8080/mcp", headers: {} },
    })
  })
})

describe("messages from a source", () => {
  let plugin: SourcePlugin
  beforeAll(async () => {
    plugin = await createMcpPlugin({ allowStdio: true, connectTimeoutMs: 20_000 })
  })
  afterAll(() => plugin?.close())

  it("a server that prints its secret on stderr and exits: the connect error shows the stderr, scrubbed", async () => {
    const discovered = await plugin.discover(
      source(
        "dies",
        inline('console.error("boot failed, token=" + process.env.API_TOKEN); process.exit(1)', { API_TOKEN: SECRET }),
      ),
    )
    expect(discovered.ok).toBe(false)
    const message = discovered.ok ? "" : discovered.message
    expect(message).toContain("boot failed, token=<redacted>")
    expect(message).not.toContain(SECRET)
  })

  it("a JSON-RPC error and stderr echoing the secret: the tools/list failure is scrubbed", async () => {
    const discovered = await plugin.discover(source("leaky", inline(LEAKY_SERVER, { API_TOKEN: SECRET })))
    expect(discovered.ok).toBe(false)
    const message = discovered.ok ? "" : discovered.message
    expect(message).toContain("backend refused token <redacted>")
    expect(message).not.toContain(SECRET)
    await plugin.release("leaky")
  })

  it("a JSON-RPC error echoing the secret: the tool call failure is scrubbed", async () => {
    const handle = source("leaky-call", inline(LEAKY_SERVER, { API_TOKEN: SECRET }))
    const called = await plugin.invoke(handle, "anything", {}, { deadline: Date.now() + 10_000 })
    expect(called).toMatchObject({ ok: false, code: "upstream_error" })
    expect(JSON.stringify(called)).toContain("<redacted>")
    expect(JSON.stringify(called)).not.toContain(SECRET)
    await plugin.release("leaky-call")
  })

  it("an unknown-tool error that echoes the name: scrubbed too", async () => {
    const handle = source("contract", {
      type: "stdio",
      ...fixtureCommand("contract-stdio"),
      env: { API_TOKEN: SECRET },
    })
    const called = await plugin.invoke(handle, `lookup-${SECRET}`, {}, { deadline: Date.now() + 10_000 })
    expect(called).toMatchObject({ ok: false, code: "tool_not_found", unknownTool: true })
    expect(JSON.stringify(called)).not.toContain(SECRET)
    await plugin.release("contract")
  })

  it("the stderr tail of a server that died mid-call is scrubbed", () => {
    const dead: McpConnection = {
      client: null as never,
      stderrTail: () => `fatal: env API_TOKEN=${SECRET}`,
      isOpen: () => false,
      overflow: () => undefined,
      lossOf: () => null,
      close: async () => {},
    }
    const config: McpSourceConfig = { transport: { type: "stdio", command: "x", args: [], env: { API_TOKEN: SECRET } } }
    const failed = callFailureMessage(new McpError(ErrorCode.ConnectionClosed, "Connection closed"), dead, "t", config)
    expect(failed).toMatchObject({ ok: false, code: "upstream_unavailable" })
    expect(failed.ok || failed.message).toContain("API_TOKEN=<redacted>")
  })
})

describe("secretFields, for core to encrypt at rest", () => {
  it("names every env and header value, and the URL when it carries a query value or is sealed", () => {
    expect(
      secretFields({
        transport: { type: "stdio", command: "x", args: ["--verbose", "serve"], env: { A: "1", B: "2" } },
      }),
    ).toEqual([
      ["transport", "env", "A"],
      ["transport", "env", "B"],
    ])
    expect(
      secretFields({ transport: { type: "http", url: "https://h/mcp", headers: { authorization: "x" } } }),
    ).toEqual([["transport", "headers", "authorization"]])
    expect(secretFields({ transport: { type: "http", url: "https://h/mcp?key=v", headers: {} } })).toEqual([
      ["transport", "url"],
    ])
    expect(secretFields({ transport: { type: "http", url: "enc:v1:k:iv:ct", headers: {} } })).toEqual([
      ["transport", "url"],
    ])
    expect(secretFields(null)).toEqual([])
  })
})

describe("mergeConfig, for PATCH", () => {
  const stdio: McpSourceConfig = { transport: { type: "stdio", command: "x", args: [], env: { A: "1", B: "2" } } }
  it("replaces a map whole, keeping the rest of the transport", () => {
    expect(mergeConfig(stdio, { transport: { env: { C: "3" } } })).toEqual({
      ok: true,
      config: { transport: { type: "stdio", command: "x", args: [], env: { C: "3" } } },
      dropped: [],
      loginMoved: false,
    })
  })
  it("drops the stored env for new arguments, and the stored headers for a URL at another origin, unless sent again", () => {
    expect(mergeConfig(stdio, { transport: { args: ["other"] } })).toEqual({
      ok: true,
      config: { transport: { type: "stdio", command: "x", args: ["other"], env: {} } },
      dropped: ["transport.env.A", "transport.env.B"],
      loginMoved: false,
    })
    expect(mergeConfig(stdio, { transport: { args: ["other"], env: { A: "1" } } })).toMatchObject({ dropped: [] })
    expect(mergeConfig(stdio, { transport: { args: [] } })).toMatchObject({ dropped: [], config: stdio })
    const http: McpSourceConfig = {
      transport: { type: "http", url: "https://mcp.example.com/mcp", headers: { authorization: "Bearer x" } },
    }
    for (const url of [
      "https://evil.example.com/mcp",
      "http://mcp.example.com/mcp",
      "https://mcp.example.com:8443/mcp",
    ])
      expect(mergeConfig(http, { transport: { url } })).toMatchObject({
        config: { transport: { url, headers: {} } },
        dropped: ["transport.headers.authorization"],
      })
    expect(mergeConfig(http, { transport: { url: "https://mcp.example.com/v2/mcp?x=1" } })).toMatchObject({
      config: { transport: { headers: { authorization: "Bearer x" } } },
      dropped: [],
    })
  })
  it("replaces an http source's auth whole, and says when that moves its OAuth login", () => {
    const oauth: McpSourceConfig = {
      transport: { type: "http", url: "https://mcp.example.com/mcp", headers: {} },
      auth: { clientId: "a", clientSecret: "secret-a", scopes: ["read"] },
    }
    const merged = (patch: unknown) => mergeConfig(oauth, patch)
    // a new secret or scopes for the same client keep the login
    expect(merged({ auth: { clientId: "a", clientSecret: "secret-b" } })).toMatchObject({
      config: { auth: { clientId: "a", clientSecret: "secret-b" } },
      dropped: [],
      loginMoved: false,
    })
    // another client, grant or URL, or a fixed authorization header, moves it
    expect(merged({ auth: { clientId: "b" } })).toMatchObject({ loginMoved: true })
    expect(merged({ auth: {} })).toMatchObject({ loginMoved: true })
    expect(merged({ transport: { url: "https://mcp.example.com/v2/mcp" } })).toMatchObject({
      dropped: [],
      loginMoved: true,
    })
    expect(merged({ transport: { headers: { Authorization: "Bearer k" } } })).toMatchObject({ loginMoved: true })
    // `{}` removes the settings; another origin without auth drops the stored secret, not the client
    expect((merged({ auth: {} }) as { config: McpSourceConfig }).config.auth).toBeUndefined()
    expect(merged({ transport: { url: "https://other.example.com/mcp" } })).toMatchObject({
      config: { auth: { clientId: "a", scopes: ["read"] } },
      dropped: ["auth.clientSecret"],
    })
    // a machine's login moves with any change of its settings: a new token is asked for at once
    const machine = { ...oauth, auth: { grant: "client_credentials" as const, clientId: "m", clientSecret: "s-1" } }
    expect(mergeConfig(machine, { auth: { ...machine.auth, clientSecret: "s-2" } })).toMatchObject({ loginMoved: true })
    expect(mergeConfig(machine, { transport: { headers: { "x-trace": "on" } } })).toMatchObject({ loginMoved: false })
  })
  it("refuses fields that are not credentials, naming the ones it takes", () => {
    expect(mergeConfig(stdio, { transport: { command: "sh" } })).toMatchObject({
      ok: false,
      message: expect.stringContaining('replaces only "transport.env" or "transport.args", not "transport.command"'),
    })
    expect(
      mergeConfig({ transport: { type: "http", url: "http://h", headers: {} } }, { transport: { env: {} } }),
    ).toMatchObject({ ok: false, message: expect.stringContaining('"transport.headers" or "transport.url"') })
  })
})

describe("scrubResult: a successful result that echoes a secret", () => {
  const config: McpSourceConfig = {
    transport: { type: "http", url: "https://h/mcp?api_key=qv-123456", headers: { authorization: `Bearer ${SECRET}` } },
  }
  it("has it replaced in every string and key, but not in image, audio or blob bytes", () => {
    const raw = {
      content: [
        { type: "text", text: `token ${SECRET}; key qv-123456` },
        { type: "image", data: `AAAA${SECRET}`, mimeType: "image/png" },
        { type: "resource", resource: { uri: "x", blob: `${SECRET}` } },
      ],
      structuredContent: { [SECRET]: { nested: [`Bearer ${SECRET}`] } },
    }
    expect(scrubResult(config, raw)).toEqual({
      content: [
        { type: "text", text: "token <redacted>; key <redacted>" },
        { type: "image", data: `AAAA${SECRET}`, mimeType: "image/png" },
        { type: "resource", resource: { uri: "x", blob: SECRET } },
      ],
      structuredContent: { "<redacted>": { nested: ["<redacted>"] } },
    })
  })
  it("finds a secret with quotes or backslashes in it, as written or percent-decoded", () => {
    const quoted: McpSourceConfig = {
      transport: { type: "stdio", command: "x", args: [], env: { A: 'tok"en\\1234', B: "pct%22val" } },
    }
    expect(scrubResult(quoted, { text: 'got tok"en\\1234 and pct"val' })).toEqual({
      text: "got <redacted> and <redacted>",
    })
  })

  it("is returned as it is, not rebuilt, when it echoes no secret", () => {
    const raw = { content: [{ type: "text", text: "nothing here" }] }
    expect(scrubResult(config, raw)).toBe(raw)
  })

  it("is scrubbed of the secret its config holds now, read anew for each execution as a new object", () => {
    const withSecret = (token: string): McpSourceConfig => ({
      transport: { type: "stdio", command: "x", args: [], env: { TOKEN: token } },
    })
    const raw = { text: "old-secret-1 new-secret-2" }
    expect(scrubResult(withSecret("old-secret-1"), raw)).toEqual({ text: "<redacted> new-secret-2" })
    // the same content as another object: the same answer
    expect(scrubResult(withSecret("old-secret-1"), raw)).toEqual({ text: "<redacted> new-secret-2" })
    // a changed secret (a PATCH): the new one is found, the old one no longer is
    expect(scrubResult(withSecret("new-secret-2"), raw)).toEqual({ text: "old-secret-1 <redacted>" })
  })

  it("is returned as it is when the source has no secret", () => {
    const raw = { content: [{ type: "text", text: "hi" }] }
    expect(scrubResult({ transport: { type: "http", url: "https://h/mcp", headers: {} } }, raw)).toBe(raw)
  })
})

describe("a config changed under a pooled connection (a PATCH here or on another server)", () => {
  it("the same config with its keys in another order (as Postgres's jsonb hands it back) keeps its connection", async () => {
    const upstream = await startEchoHeadersServer()
    const plugin = await createMcpPlugin({ connectTimeoutMs: 10_000 })
    try {
      const headers = { authorization: "Bearer same-1234", "x-team": "blue" }
      expect(
        await plugin.invoke(
          source("steady", { type: "http", url: upstream.url, headers }),
          "echo",
          {},
          { deadline: Date.now() + 10_000 },
        ),
      ).toMatchObject({ ok: true })
      const reordered = {
        headers: { "x-team": "blue", authorization: "Bearer same-1234" },
        url: upstream.url,
        type: "http",
      }
      expect(
        await plugin.invoke(source("steady", reordered), "echo", {}, { deadline: Date.now() + 10_000 }),
      ).toMatchObject({
        ok: true,
      })
      // each new connection starts with an initialize, the one request sent before a protocol version is agreed
      expect(upstream.received.filter((h) => h["mcp-protocol-version"] === undefined)).toHaveLength(1)
    } finally {
      await plugin.close()
      await upstream.close()
    }
  })

  it("gets a new connection made with the new headers", async () => {
    const upstream = await startEchoHeadersServer()
    const plugin = await createMcpPlugin({ connectTimeoutMs: 10_000 })
    try {
      const handle = (token: string) =>
        source("rotating", { type: "http", url: upstream.url, headers: { authorization: `Bearer ${token}` } })
      expect(await plugin.invoke(handle("old-1234"), "echo", {}, { deadline: Date.now() + 10_000 })).toMatchObject({
        ok: true,
      })
      const before = upstream.received.length
      expect(await plugin.invoke(handle("new-5678"), "echo", {}, { deadline: Date.now() + 10_000 })).toMatchObject({
        ok: true,
      })
      const sent = upstream.received.slice(before).filter((headers) => headers.authorization !== undefined)
      expect(sent.length).toBeGreaterThan(0)
      for (const headers of sent) expect(headers.authorization).toBe("Bearer new-5678")
    } finally {
      await plugin.close()
      await upstream.close()
    }
  })
})

describe("credentials hidden in other parts of a URL or a header (found in review)", () => {
  const http = (url: string, headers: Record<string, string> = {}): McpSourceConfig => ({
    transport: { type: "http", url, headers },
  })

  it.each([
    ["a bare query key", "https://mcp.example.com/mcp?sk_live_bareQueryToken9f8e7d", "sk_live_bareQueryToken9f8e7d"],
    ["a key in the path", "https://hooks.example.com/s/a1b2c3d4e5f6g7h8/mcp", "a1b2c3d4e5f6g7h8"],
    ["a long path segment", "https://mcp.example.com/keys/abcdefghijklmnopqrstu/mcp", "abcdefghijklmnopqrstu"],
    ["the fragment", "https://mcp.example.com/mcp#tok3nInFragment", "tok3nInFragment"],
  ])("%s is sealed at rest, never shown, and scrubbed from text", (_name, url, secret) => {
    const config = http(url)
    expect(secretFields(config)).toContainEqual(["transport", "url"])
    expect(JSON.stringify(redactConfig(config))).not.toContain(secret)
    expect(scrubSecrets(config, `upstream said: ${secret} is wrong`)).toBe("upstream said: <redacted> is wrong")
  })

  it("a plain URL stays readable and unsealed: words in its path are not credentials", () => {
    const config = http("https://mcp.example.com/v1/mcp")
    expect(secretFields(config)).toEqual([])
    expect(redactConfig(config)).toMatchObject({ transport: { url: "https://mcp.example.com/v1/mcp" } })
  })

  it("a cookie's values and Basic's password are scrubbed on their own, short list items are not", () => {
    const config = http("https://mcp.example.com/mcp", {
      cookie: "session=S3ssionSecretValue42; theme=dark",
      authorization: `Basic ${btoa("svc-user:P4ssw0rdSecret!")}`,
    })
    const text = "cookie S3ssionSecretValue42, login svc-user:P4ssw0rdSecret!, password P4ssw0rdSecret!, theme dark"
    expect(scrubSecrets(config, text)).toBe("cookie <redacted>, login <redacted>, password <redacted>, theme dark")
  })
})

describe("a stdio source's arguments that carry credentials (found in review)", () => {
  const stdio = (args: string[]): McpSourceConfig => ({ transport: { type: "stdio", command: "npx", args, env: {} } })

  it("are sealed at rest, redacted when shown and scrubbed from text; other arguments stay readable", () => {
    const config = stdio([
      "mcp-remote",
      "https://mcp.example.com/mcp",
      "--header",
      "Authorization: Bearer tok_header_123456",
      "--api-key=sk_live_argValue789",
      "--token",
      "plainNextArgSecret",
      "--verbose",
    ])
    expect(secretFields(config)).toEqual([
      ["transport", "args", "3"],
      ["transport", "args", "4"],
      ["transport", "args", "6"],
    ])
    expect(redactConfig(config)).toMatchObject({
      transport: {
        args: [
          "mcp-remote",
          "https://mcp.example.com/mcp",
          "--header",
          "<redacted>",
          "<redacted>",
          "--token",
          "<redacted>",
          "--verbose",
        ],
      },
    })
    const text = "saw tok_header_123456 and sk_live_argValue789 and plainNextArgSecret via mcp-remote"
    expect(scrubSecrets(config, text)).toBe("saw <redacted> and <redacted> and <redacted> via mcp-remote")
  })

  it("a sealed argument is still named as secret, so it is opened on read", () => {
    expect(secretFields(stdio(["serve", "enc:v1:k:iv:ct"]))).toEqual([["transport", "args", "1"]])
  })
})
