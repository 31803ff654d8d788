/**
 * Debian's Chromium, driven through playwright-core (no browser download is possible here). A machine without it
 * fails the console tests with how to install it: they never skip. SWITCHBOARD_CHROMIUM names another binary.
 */
import { existsSync } from "node:fs"
import { chromium } from "playwright-core"
import type { Browser, Page } from "playwright-core"

const CANDIDATES = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"]

export const chromiumPath = () => {
  const named = process.env.SWITCHBOARD_CHROMIUM
  if (named) {
    if (!existsSync(named)) throw new Error(`SWITCHBOARD_CHROMIUM names ${named}, which does not exist`)
    return named
  }
  const found = CANDIDATES.find((path) => existsSync(path))
  if (!found)
    throw new Error(
      "the console's browser tests need Chromium, and none was found (looked for " +
        `${CANDIDATES.join(", ")}): install Debian's with \`apt-get install -y chromium\` (.ci/run does), ` +
        "or set SWITCHBOARD_CHROMIUM to a Chromium binary",
    )
  return found
}

export const launchBrowser = (): Promise<Browser> =>
  chromium.launch({ executablePath: chromiumPath(), args: ["--no-sandbox", "--disable-dev-shm-usage"] })

/** A page that fails the test on any error the console logs, a CSP refusal included. */
export const strictPage = async (browser: Browser, width = 1280) => {
  const context = await browser.newContext({ viewport: { width, height: 900 } })
  const page = await context.newPage()
  const problems: string[] = []
  page.on("console", (message) => {
    // a 4xx the console asked for on purpose (the scope probes) is logged by Chromium as a failed resource
    if (message.type() === "error" && !/Failed to load resource/.test(message.text())) problems.push(message.text())
  })
  page.on("pageerror", (error) => problems.push(String(error)))
  return { page, problems, close: () => context.close() }
}

export type { Browser, Page }
