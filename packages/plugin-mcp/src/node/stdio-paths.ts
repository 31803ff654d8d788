/**
 * A stdio server's relative paths, made absolute when its source is added or changed, so that the source runs the
 * same files whatever folder a later process starts in (`switchboard mcp` as an MCP client runs it, a server started
 * elsewhere); and the check that what it names is there, so a path that is not is refused when it is added, named,
 * rather than failing at each start. `base` is the folder a person meant: the CLI's working directory, a config
 * file's folder, this process's working directory for a body sent to the API. The rule:
 *
 * - `cwd`, when relative, is taken from `base`; the command's and arguments' relative paths are then taken from it.
 * - The command is a path when it holds a separator or starts with `.`; a bare name (`node`, `npx`) stays a name,
 *   looked for on PATH (the source's `env.PATH` when it sets one) when the process starts.
 * - An argument is a path when it starts with `./` or `../` (or is `.` or `..`), ends with a script's extension
 *   (`server.mjs`, `main.py`), or holds a separator and it or its folder exists (`apps/x/server.js`, `data/out.log`).
 *   Never a path: a flag (`-y`, `--port`, `--root=./x`), `NAME=value`, a URL or `scheme:` (`https://…`, `jsr:@x/y`),
 *   an argument that may be a credential (./arg-secrets.ts: it is sealed, and no message may name it), and a name
 *   with a separator whose folder is not there (a package `@scope/name`, an image `mcp/fetch`).
 * - The check: a command path must be an executable file, a bare command must be on PATH (not checked on Windows, where PATHEXT
 *   decides), `cwd` a folder, and an argument with a script's extension a file. Any other argument may name what the
 *   server makes (a log file), so it is not checked.
 */
import { accessSync, constants, statSync } from "node:fs"
import { delimiter, isAbsolute, join, resolve } from "node:path"
import { secretArgs } from "../arg-secrets.js"
import type { StdioServer } from "../stdio-spawner.js"

const SCRIPT = /\.(?:[cm]?[jt]s|[jt]sx|py|rb|pl|php|lua|sh|bash|jar)$/i
const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/
const ASSIGNMENT = /^[A-Za-z_][\w.-]*=/
const EXPLICIT = /^\.\.?(?:[/\\]|$)/
const SEPARATOR = /[/\\]/

const kind = (path: string): "file" | "folder" | null => {
  try {
    return statSync(path).isDirectory() ? "folder" : "file"
  } catch {
    return null
  }
}

/** Whether `arg` is a relative path by its form alone, or null when what exists decides. */
const relativePath = (arg: string): boolean | null => {
  if (arg === "" || isAbsolute(arg) || arg.startsWith("-") || arg.includes("\n")) return false
  if (SCHEME.test(arg) || ASSIGNMENT.test(arg)) return false
  if (EXPLICIT.test(arg) || SCRIPT.test(arg)) return true
  return SEPARATOR.test(arg) ? null : false
}

const resolveArg = (arg: string, from: string): string => {
  const path = relativePath(arg)
  if (path === false) return arg
  const absolute = resolve(from, arg)
  return path || kind(absolute) !== null || kind(resolve(absolute, "..")) === "folder" ? absolute : arg
}

/** `server` with its relative paths taken from `base` (see the rule above); everything else as it was. */
export const resolveStdioPaths = <S extends StdioServer>(server: S, base: string): S => {
  const cwd = server.cwd === undefined ? undefined : resolve(base, server.cwd)
  const from = cwd ?? base
  const named = server.command
  const command = !isAbsolute(named) && (SEPARATOR.test(named) || named.startsWith(".")) ? resolve(from, named) : named
  const secret = secretArgs(server.args ?? [])
  const args = server.args?.map((arg, index) => (secret.has(index) ? arg : resolveArg(arg, from)))
  return { ...server, command, ...(args ? { args } : {}), ...(cwd === undefined ? {} : { cwd }) }
}

const runnable = (path: string) => {
  try {
    accessSync(path, constants.X_OK)
    return kind(path) === "file"
  } catch {
    return false
  }
}

const onPath = (name: string, path: string | undefined) =>
  (path ?? "").split(delimiter).some((folder) => folder !== "" && runnable(join(folder, name)))

/** What of a resolved server is not there, one message per field, each naming the path; empty when all is. */
export const checkStdioPaths = (server: StdioServer): string[] => {
  const problems: string[] = []
  if (server.cwd !== undefined && kind(server.cwd) !== "folder")
    problems.push(`transport.cwd: ${server.cwd} is not a folder`)
  const { command } = server
  if (isAbsolute(command)) {
    const found = kind(command)
    if (found === null) problems.push(`transport.command: ${command} does not exist`)
    else if (found === "folder") problems.push(`transport.command: ${command} is a folder, not a program`)
    else if (process.platform !== "win32" && !runnable(command))
      problems.push(`transport.command: ${command} is not executable`)
  } else if (process.platform !== "win32" && !onPath(command, server.env?.PATH ?? process.env.PATH))
    problems.push(`transport.command: "${command}" is not a program on this host's PATH`)
  const secret = secretArgs(server.args ?? [])
  server.args?.forEach((arg, index) => {
    if (secret.has(index) || !isAbsolute(arg) || !SCRIPT.test(arg)) return
    if (kind(arg) !== "file") problems.push(`transport.args[${index}]: ${arg} does not exist`)
  })
  return problems
}

/**
 * What this host does with a stdio server when a source is added or changed (the plugin's `resolveStdio`): its
 * relative paths taken from this process's working directory, then checked.
 */
export const pinNodeStdio = <S extends StdioServer>(server: S) => {
  const resolved = resolveStdioPaths(server, process.cwd())
  const problems = checkStdioPaths(resolved)
  return problems.length === 0
    ? { ok: true as const, server: resolved }
    : { ok: false as const, message: problems.join("; ") }
}
