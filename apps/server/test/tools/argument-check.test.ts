/**
 * A call's arguments are checked against the tool's declared input schema before the call: arguments that do not
 * fit resolve to `invalid_arguments`, naming where and what was expected, and the upstream (the contract fixture over
 * HTTP, which records every tools/call it receives) sees no request. Arguments that fit reach it as before.
 */
import { afterAll, beforeAll, expect, it } from "vitest"
import { startContractHttpServer } from "@switchboard/fixtures"
import type { ContractHttpServer } from "@switchboard/fixtures"
import { startTestServer } from "../support/helpers.js"
import type { TestServer } from "../support/helpers.js"

let upstream: ContractHttpServer
let server: TestServer
beforeAll(async () => {
  upstream = await startContractHttpServer()
  server = await startTestServer()
  const added = await server.request("POST", "/v1/sources", {
    namespace: "contract",
    kind: "mcp",
    transport: { type: "http", url: upstream.url },
  })
  expect(added.status).toBe(201)
})
afterAll(async () => {
  await server?.stop()
  await upstream?.close()
})

/** get-sum takes { a: number, b: number }, both required, nothing else */
const sum = async (args: string) =>
  (await server.execute(`return await tools.contract["get-sum"](${args})`)).result as {
    ok: boolean
    data?: unknown
    error?: { code: string; message: string; data?: unknown }
  }

it.each([
  ['{ a: 1, b: "2" }', 'args.b: Instance type "string" is invalid. Expected "number".'],
  ["{ a: 1 }", "args.b: a required property, missing"],
  ["{ a: 1, b: 2, c: 3 }", "args.c: not a property this tool takes"],
  ["{ a: 1, b: { deep: [1] } }", 'args.b: Instance type "object" is invalid. Expected "number".'],
])("%s is invalid_arguments naming the place and what was expected; the upstream sees no call", async (args, says) => {
  const before = upstream.calls.length
  const result = await sum(args)
  expect(result).toEqual({
    ok: false,
    error: {
      code: "invalid_arguments",
      message: `arguments to "contract.get-sum" do not fit its input schema: ${says}`,
      data: { errors: [{ path: says.slice(0, says.indexOf(":")), expected: says.slice(says.indexOf(":") + 2) }] },
    },
  })
  expect(upstream.calls.slice(before)).toEqual([])
})

it("names each mismatch, at most three, in one message", async () => {
  const result = await sum('{ a: "1", b: "2", c: 3, d: 4 }')
  expect(result.error?.code).toBe("invalid_arguments")
  expect(result.error?.message).toBe(
    'arguments to "contract.get-sum" do not fit its input schema: args.a: Instance type "string" is invalid. Expected "number".; ' +
      'args.b: Instance type "string" is invalid. Expected "number".; args.c: not a property this tool takes',
  )
})

it("arguments that fit reach the upstream as they were", async () => {
  const before = upstream.calls.length
  expect(await sum("{ a: 2, b: 3 }")).toMatchObject({ ok: true, data: "5" })
  expect(upstream.calls.slice(before)).toEqual([{ name: "get-sum", args: { a: 2, b: 3 } }])
})

it("a tool whose schema forbids nothing takes any arguments (echo: message required, others allowed)", async () => {
  const result = (await server.execute('return await tools.contract.echo({ message: "hi", extra: 1 })')).result
  expect(result).toMatchObject({ ok: true, data: "hi" })
  const missing = (await server.execute("return await tools.contract.echo({})")).result
  expect(missing.error.message).toBe(
    'arguments to "contract.echo" do not fit its input schema: args.message: a required property, missing',
  )
})
