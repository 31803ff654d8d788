import type { CodeRuntime, InvokeTool, RunDeterminism, RunLimits, RunOutcome, ToolResult } from "@switchboard/core"

export const testLimits: RunLimits = {
  timeoutMs: 2_000,
  memoryBytes: 32 << 20,
  // 256 KiB stays inside the host stack of a main thread
  stackBytes: 256 << 10,
  maxToolCalls: 20,
  maxResultBytes: 64 << 10,
  maxResultNodes: 100_000,
  maxLogLines: 50,
  maxLogBytes: 8 << 10,
  maxToolArgBytes: 64 << 10,
  maxToolArgBytesInFlight: 256 << 10,
}

export interface ToolCall {
  path: string
  args: unknown
}

/** An invoke that records every call and answers from a table of handlers (unknown tools fail like the executor's). */
export const recordingInvoke = (handlers: Record<string, (args: unknown) => unknown> = {}) => {
  const calls: ToolCall[] = []
  const invoke: InvokeTool = async (path, args) => {
    calls.push({ path, args })
    const handler = handlers[path]
    if (!handler) return { ok: false, error: { code: "tool_not_found", message: `no tool ${path}` } }
    return { ok: true, data: await handler(args) } satisfies ToolResult
  }
  return { invoke, calls }
}

export const noTools: InvokeTool = async (path) => ({
  ok: false,
  error: { code: "tool_not_found", message: `no tool ${path}` },
})

export const runWith = (
  runtime: CodeRuntime,
  code: string,
  options: {
    invoke?: InvokeTool
    limits?: Partial<RunLimits>
    signal?: AbortSignal
    determinism?: RunDeterminism
    deadline?: number
  } = {},
): Promise<RunOutcome> =>
  runtime.run(code, {
    invoke: options.invoke ?? noTools,
    limits: { ...testLimits, ...options.limits },
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.determinism ? { determinism: options.determinism } : {}),
    ...(options.deadline !== undefined ? { deadline: options.deadline } : {}),
  })

/** Narrows an outcome for assertions, with the whole outcome in the failure message. */
export const expectError = (outcome: RunOutcome) => {
  if (outcome.ok) throw new Error(`expected a failed run, got ${JSON.stringify(outcome)}`)
  return outcome.error
}

export const expectValue = (outcome: RunOutcome) => {
  if (!outcome.ok) throw new Error(`expected a value, got ${JSON.stringify(outcome)}`)
  return outcome.value
}
