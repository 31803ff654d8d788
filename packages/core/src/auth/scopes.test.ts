import { describe, expect, it } from "vitest"
import { OPEN_CALLER, canReadExecution, effectiveScope, hasScope, missingScopeMessage, parseScopes } from "./scopes.js"

describe("scopes", () => {
  it("admin includes execute, execute includes read; a legacy `*` is admin; an unknown value or an empty list is nothing", () => {
    expect(effectiveScope(["read"])).toBe("read")
    expect(effectiveScope(["read", "execute"])).toBe("execute")
    expect(effectiveScope(["admin"])).toBe("admin")
    expect(effectiveScope(["*"])).toBe("admin")
    expect(effectiveScope(["operator"])).toBeNull() // a later build's scope is never admin here
    expect(effectiveScope(["read", "operator"])).toBe("read")
    expect(effectiveScope({ admin: true })).toBeNull()
    expect(effectiveScope("*")).toBe("admin")
    expect(effectiveScope([])).toBeNull()
    const read = { keyId: "r", scope: "read" as const }
    const execute = { keyId: "x", scope: "execute" as const }
    expect([hasScope(read, "read"), hasScope(read, "execute"), hasScope(read, "admin")]).toEqual([true, false, false])
    expect([hasScope(execute, "read"), hasScope(execute, "execute"), hasScope(execute, "admin")]).toEqual([
      true,
      true,
      false,
    ])
    expect(hasScope(OPEN_CALLER, "admin")).toBe(true)
    expect(hasScope({ keyId: "n", scope: null }, "read")).toBe(false)
    expect(missingScopeMessage("this route", "admin", execute)).toBe(
      'this route needs the "admin" scope; this key has: execute',
    )
  })

  it("a key reads only its own executions; admin reads all; an execution without a key is admin's alone", () => {
    const execute = { keyId: "x", scope: "execute" as const }
    expect(canReadExecution(execute, "x")).toBe(true)
    expect(canReadExecution(execute, "y")).toBe(false)
    expect(canReadExecution(execute, null)).toBe(false)
    expect(canReadExecution({ keyId: "a", scope: "admin" }, "y")).toBe(true)
    expect(canReadExecution(OPEN_CALLER, null)).toBe(true)
  })

  it("parses --scope values: repeated or comma-separated, known scopes only, at least one", () => {
    expect(parseScopes(["execute"])).toEqual({ ok: true, value: ["execute"] })
    expect(parseScopes(["read,execute", "read"])).toEqual({ ok: true, value: ["read", "execute"] })
    const bad = parseScopes(["execute,root"])
    expect(bad.ok || bad.error.message).toBe('unknown scope "root"; the scopes are read, execute, admin')
    expect(parseScopes([" , "]).ok).toBe(false)
  })
})
