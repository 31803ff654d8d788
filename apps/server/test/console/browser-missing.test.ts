import { afterEach, expect, it } from "vitest"
import { chromiumPath } from "@switchboard/fixtures/browser"

afterEach(() => {
  delete process.env.SWITCHBOARD_CHROMIUM
})

it("fails, saying how to install Chromium, when the browser named is not there", () => {
  process.env.SWITCHBOARD_CHROMIUM = "/nonexistent/chromium"
  expect(() => chromiumPath()).toThrow("SWITCHBOARD_CHROMIUM names /nonexistent/chromium")
})
