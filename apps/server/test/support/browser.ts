/**
 * Debian's Chromium, driven through playwright-core (no browser download is possible here). A machine without it
 * fails the console tests with how to install it: they never skip. SWITCHBOARD_CHROMIUM names another binary.
 */
import { existsSync, mkdirSync } from "node:fs"
import { fileURLToPath } from "node:url"
import AxeBuilder from "@axe-core/playwright"
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

/** where the README's screenshots of the console are written: the tests make them, so they show what is */
export const SCREENSHOTS = fileURLToPath(new URL("../../../../docs/console/", import.meta.url))

/**
 * The page as a person meets it: no serious or critical axe-core violation, at 1280 px and at 390 px, where
 * nothing but a table's own scroller is wider than the screen. With `screenshot`, the README's picture of it.
 */
export const checkPage = async (page: Page, screenshot?: string) => {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 })
    const results = await new AxeBuilder({ page }).analyze()
    const serious = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical")
    if (serious.length > 0)
      throw new Error(
        `axe at ${width} px: ${serious.map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`).join("; ")}`,
      )
    const overflow = await page.evaluate("document.documentElement.scrollWidth")
    if ((overflow as number) > width) {
      const wide = await page.evaluate(
        `[...document.querySelectorAll("body *")].filter((e) => e.getBoundingClientRect().right > ${width} + 1)
          .slice(0, 5).map((e) => e.tagName + "." + e.className).join(", ")`,
      )
      throw new Error(`at ${width} px the page is ${overflow} px wide: ${wide}`)
    }
  }
  await page.setViewportSize({ width: 1280, height: 900 })
  if (screenshot) {
    mkdirSync(SCREENSHOTS, { recursive: true })
    await page.screenshot({ path: `${SCREENSHOTS}${screenshot}.png`, fullPage: true })
  }
}
