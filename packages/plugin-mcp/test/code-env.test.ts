/** Issue 30, finding 1: which env variables make a stdio source's command load code (./src/code-env.ts). */
import { expect, it } from "vitest"
import { codeLoadingNames, loadsCode } from "../src/code-env.js"

it.each([
  "NODE_OPTIONS",
  "NODE_PATH",
  "LD_PRELOAD",
  "LD_LIBRARY_PATH",
  "LD_AUDIT",
  "DYLD_INSERT_LIBRARIES",
  "PYTHONPATH",
  "PYTHONSTARTUP",
  "PERL5OPT",
  "RUBYOPT",
  "BASH_ENV",
  "ENV",
  "BASH_FUNC_ls%%",
  "JAVA_TOOL_OPTIONS",
  "npm_config_registry",
  "GIT_SSH_COMMAND",
  "GIT_CONFIG_COUNT",
  "node_options",
])("%s loads code", (name) => expect(loadsCode(name)).toBe(true))

it.each([
  "PATH",
  "HOME",
  "NODE_ENV",
  "PYTHONUNBUFFERED",
  "PYTHONIOENCODING",
  "DEBUG",
  "GITHUB_TOKEN",
  "LANG",
  "ENVIRONMENT",
])("%s does not", (name) => expect(loadsCode(name)).toBe(false))

it("names the variables of an env that load code, in its order", () => {
  expect(codeLoadingNames({ API_KEY: "x", LD_PRELOAD: "/x.so", PATH: "/bin", NODE_OPTIONS: "--require x" })).toEqual([
    "LD_PRELOAD",
    "NODE_OPTIONS",
  ])
  expect(codeLoadingNames(undefined)).toEqual([])
})
