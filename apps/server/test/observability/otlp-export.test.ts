/**
 * OpenTelemetry export (issue 17 §3): a `switchboard serve` process started with OTEL_EXPORTER_OTLP_ENDPOINT sends
 * its execution and tool-call spans to a real OTLP/HTTP receiver (a server in this test taking POST /v1/traces,
 * JSON). The spans carry names, codes, sizes and encodings, and never an argument, a result, a thrown message or
 * a source's secret.
 */
import { randomUUID } from "node:crypto"
import { createServer } from "node:http"
import type { Server } from "node:http"
import type { AddressInfo } from "node:net"
import { join } from "node:path"
import { afterAll, beforeAll, expect, it } from "vitest"
import { startEchoHeadersServer } from "@switchboard/fixtures"
import type { EchoHeadersServer } from "@switchboard/fixtures"
import { tempDir } from "../support/helpers.js"
import { call, spawnServe } from "../support/process-harness.js"
import { runCli } from "../support/run-cli.js"

interface OtlpValue {
  stringValue?: string
  intValue?: string | number
  doubleValue?: number
  boolValue?: boolean
}
interface OtlpSpan {
  traceId: string
  spanId: string
  parentSpanId?: string
  name: string
  attributes?: { key: string; value: OtlpValue }[]
  status?: { code?: number; message?: string }
}
interface Received {
  path: string
  contentType: string | undefined
  body: string
}

/** A collector's OTLP/HTTP traces endpoint, keeping every request it gets. */
const startReceiver = async () => {
  const received: Received[] = []
  const server: Server = createServer((req, res) => {
    let body = ""
    req.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")))
    req.on("end", () => {
      received.push({ path: req.url ?? "", contentType: req.headers["content-type"], body })
      res.writeHead(200, { "content-type": "application/json" }).end("{}")
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  const spans = (): (OtlpSpan & { resource: Record<string, unknown> })[] =>
    received.flatMap((r) =>
      (JSON.parse(r.body).resourceSpans ?? []).flatMap(
        (rs: { resource?: { attributes?: OtlpSpan["attributes"] }; scopeSpans?: { spans?: OtlpSpan[] }[] }) =>
          (rs.scopeSpans ?? []).flatMap((ss) =>
            (ss.spans ?? []).map((span) => ({ ...span, resource: attributesOf(rs.resource?.attributes) })),
          ),
      ),
    )
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    spans,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

const valueOf = (value: OtlpValue) =>
  value.stringValue ?? (value.intValue !== undefined ? Number(value.intValue) : (value.doubleValue ?? value.boolValue))
const attributesOf = (attributes: OtlpSpan["attributes"] = []) =>
  Object.fromEntries(attributes.map(({ key, value }) => [key, valueOf(value)]))

const secret = `SECRET-${randomUUID()}`
const argument = `ARGUMENT-${randomUUID()}`
const thrown = `THROWN-${randomUUID()}`

let receiver: Awaited<ReturnType<typeof startReceiver>>
let upstream: EchoHeadersServer
const folder = tempDir()
beforeAll(async () => {
  receiver = await startReceiver()
  upstream = await startEchoHeadersServer()
})
afterAll(async () => {
  await receiver?.close()
  await upstream?.close()
  folder.remove()
})

it("sends execution and tool-call spans to the collector, with sizes and codes and no values or secrets", async () => {
  const server = await spawnServe(["--db", join(folder.dir, "catalog.db"), "--workers", "1"], {
    env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_BSP_SCHEDULE_DELAY: "50" },
  })
  let executionId: string
  let failedId: string
  try {
    const added = await call(server.url, "POST", "/v1/sources", {
      namespace: "echo",
      kind: "mcp",
      transport: { type: "http", url: upstream.url, headers: { authorization: `Bearer ${secret}` } },
    })
    expect(added.status).toBe(201)
    // echo answers with the request's headers, the secret among them (the plugin scrubs it from the result); fail
    // errors with them in its message
    const ran = await call(server.url, "POST", "/v1/execute", {
      code: `const a = await tools.echo.echo({ note: "${argument}" })
             const b = await tools.echo.fail({ note: "${argument}" })
             return a.ok && !b.ok`,
    })
    expect(ran.body).toMatchObject({ ok: true, result: true })
    executionId = ran.body.executionId
    const failed = await call(server.url, "POST", "/v1/execute", { code: `throw new Error("${thrown}")` })
    expect(failed.body).toMatchObject({ ok: false, error: { code: "runtime_error" } })
    failedId = failed.body.executionId
    // batched every 50 ms: wait for both executions' spans (a bounded number of looks, no timing asserted)
    const arrived = () =>
      [executionId, failedId].every((id) =>
        receiver.spans().some((s) => attributesOf(s.attributes)["switchboard.execution_id"] === id),
      )
    for (let i = 0; i < 200 && !arrived(); i++) await new Promise((resolve) => setTimeout(resolve, 25))
  } finally {
    await server.stop()
  }

  expect(receiver.received.length).toBeGreaterThan(0)
  for (const request of receiver.received) {
    expect(request.path).toBe("/v1/traces")
    expect(request.contentType).toMatch(/^application\/json/)
  }
  const spans = receiver.spans()
  const execution = spans.find((s) => attributesOf(s.attributes)["switchboard.execution_id"] === executionId)!
  expect(execution).toMatchObject({ name: "switchboard.execute", resource: { "service.name": "switchboard" } })
  expect(attributesOf(execution.attributes)).toEqual({
    "switchboard.execution_id": executionId,
    "switchboard.tool_calls": 2,
    // the size of the result text ("true"), never the text
    "switchboard.result.chars": 4,
  })
  const calls = spans.filter((s) => s.name === "switchboard.tool_call" && s.parentSpanId === execution.spanId)
  expect(calls.map((s) => s.traceId)).toEqual([execution.traceId, execution.traceId])
  const byPath = (path: string) => calls.find((s) => attributesOf(s.attributes)["switchboard.tool.path"] === path)!
  const [echo, fail] = [byPath("echo.echo"), byPath("echo.fail")]
  expect(attributesOf(echo.attributes)).toEqual({
    "switchboard.tool.path": "echo.echo",
    "switchboard.tool.encoding": "mcp-call-tool-result-v2",
    "switchboard.tool.source": "echo",
    "switchboard.tool.data_bytes": expect.any(Number),
    "switchboard.tool.upstream_ms": expect.any(Number),
  })
  const failCode = attributesOf(fail.attributes)["switchboard.error_code"]
  expect(failCode).toEqual(expect.any(String))
  // a failed span's status names the code alone: the upstream's message quoted the secret
  expect(fail.status).toEqual({ code: 2, message: failCode })
  const thrownSpan = spans.find((s) => attributesOf(s.attributes)["switchboard.execution_id"] === failedId)!
  expect(thrownSpan.status).toEqual({ code: 2, message: "runtime_error" })

  const everything = receiver.received.map((r) => r.body).join("\n")
  expect(everything).not.toContain(secret)
  expect(everything).not.toContain(argument)
  expect(everything).not.toContain(thrown)
})

it("`switchboard run` sends its execution's span as well, before it exits", async () => {
  const before = receiver.spans().length
  // asynchronous: the receiver answers from this process
  const { stdout } = await runCli(["run", "-", "--db", join(folder.dir, "catalog.db")], {
    input: "return 6 * 7",
    env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url },
  })
  expect(stdout).toBe("42\n")
  const spans = receiver.spans().slice(before)
  expect(spans.map((s) => s.name)).toEqual(["switchboard.execute"])
  expect(attributesOf(spans[0]!.attributes)["switchboard.result.chars"]).toBe(2)
})

it("with the collector down, the server still answers and stops, and the log says the export failed", async () => {
  const closed = await startReceiver()
  await closed.close()
  const server = await spawnServe(["--db", join(folder.dir, "down.db"), "--workers", "1"], {
    // the exporter retries a refused connection until its timeout (10 s by default) before it reports the failure
    env: { OTEL_EXPORTER_OTLP_ENDPOINT: closed.url, OTEL_BSP_SCHEDULE_DELAY: "50", OTEL_EXPORTER_OTLP_TIMEOUT: "300" },
  })
  const ran = await call(server.url, "POST", "/v1/execute", { code: "return 1" })
  expect(ran.body).toMatchObject({ ok: true, result: 1 })
  for (let i = 0; i < 200 && !server.stderr().includes("OpenTelemetry export failed"); i++)
    await new Promise((resolve) => setTimeout(resolve, 25))
  await server.stop()
  expect(server.stderr()).toContain("OpenTelemetry export failed")
  // a SIGTERM ends it by itself (stop() kills it only after 5 s): the exit did not wait out the exporter's retries
  expect(server.child.signalCode).toBeNull()
  expect(server.child.exitCode).toBe(0)
})
