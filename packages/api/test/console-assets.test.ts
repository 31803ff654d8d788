import { describe, expect, it } from "vitest"
import { CONSOLE_CSP } from "../src/console-assets.js"
import type { ConsoleAssets } from "../src/console-assets.js"
import { memoryKeys, stubApp, stubServices } from "./stub-app.js"

const assets: ConsoleAssets = {
  "/": {
    body: '<!doctype html><meta name="csp-nonce" content="__CSP_NONCE__"><title>x</title>',
    contentType: "text/html; charset=utf-8",
  },
  "/assets/index-abc123.js": { body: "console.log(1)", contentType: "text/javascript; charset=utf-8" },
}

describe("the console's files", () => {
  it("serves index.html never cached and hashed files immutable, each with the CSP", async () => {
    const app = stubApp({ console: assets })
    const index = await app.request("/")
    expect(index.status).toBe(200)
    expect(index.headers.get("cache-control")).toBe("no-cache")
    expect(index.headers.get("content-security-policy")).toMatch(/style-src .self. .nonce-\w+./)
    expect(await index.text()).toContain("<title>x</title>")
    const script = await app.request("/assets/index-abc123.js")
    expect(script.headers.get("cache-control")).toContain("immutable")
    expect(script.headers.get("content-type")).toContain("text/javascript")
    expect(CONSOLE_CSP).toContain("script-src 'self'")
    expect(CONSOLE_CSP).not.toMatch(/script-src[^;]*unsafe/)
  })

  it("gives each index.html a fresh nonce, the one its CSP allows style elements by", async () => {
    const app = stubApp({ console: assets })
    const nonceOf = async () => {
      const answer = await app.request("/")
      const inPage = /content="([^"]+)"/.exec(await answer.text())?.[1]
      expect(answer.headers.get("content-security-policy")).toContain(`style-src 'self' 'nonce-${inPage}'`)
      return inPage
    }
    const first = await nonceOf()
    expect(first).toMatch(/^[A-Za-z0-9]{16,}$/)
    expect(await nonceOf()).not.toBe(first)
  })

  it("needs no key for the files, while the API still does", async () => {
    const app = stubApp({ console: assets }, { keys: memoryKeys() })
    expect((await app.request("/")).status).toBe(200)
    expect((await app.request("/v1/sources")).status).toBe(401)
    // a file the build did not emit is no file: the key check answers, as for any unknown path
    expect((await app.request("/assets/other.js")).status).toBe(401)
  })

  it("applies the Host check to the files too", async () => {
    const app = stubApp({ console: assets, allowedHosts: ["127.0.0.1"] })
    expect((await app.request("http://127.0.0.1/")).status).toBe(200)
    const rebound = await app.request("http://evil.example/")
    expect(rebound.status).toBe(403)
    expect(await rebound.json()).toMatchObject({ error: { code: "forbidden_host" } })
  })

  it("answers only GET and HEAD, and nothing without the option", async () => {
    const app = stubApp({ console: assets })
    expect((await app.request("/", { method: "POST" })).status).toBe(404)
    expect((await app.request("/", { method: "HEAD" })).status).toBe(200)
    const bare = stubApp({}, stubServices())
    expect((await bare.request("/")).status).toBe(404)
  })
})
