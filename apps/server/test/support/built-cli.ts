/**
 * The built CLI, dist/switchboard.mjs (scripts/build-cli.mjs), which the tests that spawn `switchboard` run: it is
 * the product. test/support/global-setup.ts builds it from the current sources before any test runs.
 */
import { fileURLToPath } from "node:url"

/** the built package's folder: the CLI and the files it carries (the demo server, the workers' bundles, migrations) */
export const builtDir = fileURLToPath(new URL("../../dist/", import.meta.url))
export const builtCli = `${builtDir}switchboard.mjs`

/** Node's arguments for `switchboard <args>` */
export const cliArgs = (args: string[]) => [builtCli, ...args]
