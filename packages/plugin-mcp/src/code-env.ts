/**
 * Environment variables that make a program, or a runtime or loader it starts, load or run code named in the
 * variable: a stdio source whose env sets one runs that code whatever its command is. The gate in
 * ./connection.ts refuses them unless the host allows them (`--allow-stdio-code-env`). Names are compared in
 * upper case: Windows and npm read them so, and refusing `node_options` on Linux costs nothing.
 *
 * Sources, by family:
 * - Node: NODE_OPTIONS (`--require`, `--import`, `--loader`), NODE_PATH (where `require` looks first),
 *   NODE_REPL_EXTERNAL_MODULE. https://nodejs.org/api/cli.html#environment-variables
 * - the dynamic linker: every LD_* (LD_PRELOAD, LD_LIBRARY_PATH, LD_AUDIT, …; ld.so(8)), every DYLD_* (macOS
 *   dyld(1)), GCONV_PATH (glibc's iconv loads modules from it).
 * - Python: PYTHONPATH, PYTHONHOME, PYTHONSTARTUP, PYTHONUSERBASE (its .pth files run), PYTHONEXECUTABLE,
 *   PYTHONBREAKPOINT and PYTHONWARNINGS (each imports a module it names), PYTHONPYCACHEPREFIX (compiled modules
 *   read from there). https://docs.python.org/3/using/cmdline.html#environment-variables
 * - Perl: PERL5OPT (`-M`), PERL5LIB, PERLLIB, PERL5DB; Ruby: RUBYOPT (`-r`), RUBYLIB; Lua: LUA_INIT*, LUA_PATH*,
 *   LUA_CPATH*; PHP: PHPRC, PHP_INI_SCAN_DIR (`auto_prepend_file`).
 * - shells: BASH_ENV, ENV (sourced by non-interactive bash and by sh), BASH_FUNC_* (exported functions),
 *   SHELLOPTS, BASHOPTS, PS4 (expanded under xtrace), PROMPT_COMMAND.
 * - the JVM: JAVA_TOOL_OPTIONS, _JAVA_OPTIONS, JDK_JAVA_OPTIONS (`-javaagent`), CLASSPATH; .NET:
 *   DOTNET_STARTUP_HOOKS, CORECLR_PROFILER_PATH*.
 * - package runners, which download and run code from where they are told (`npx -y`, `uvx`): every NPM_CONFIG_*
 *   (the registry, `node-options`, the script shell), PIP_INDEX_URL, PIP_EXTRA_INDEX_URL, PIP_FIND_LINKS,
 *   UV_INDEX_URL, UV_EXTRA_INDEX_URL, UV_DEFAULT_INDEX, UV_INDEX, UV_FIND_LINKS.
 * - git, which MCP servers run: GIT_SSH, GIT_SSH_COMMAND, GIT_ASKPASS, SSH_ASKPASS, GIT_EXEC_PATH,
 *   GIT_EXTERNAL_DIFF, GIT_PROXY_COMMAND, and every GIT_CONFIG* (a config can name commands to run).
 *
 * PATH is not among them: nearly every stdio source sets it, and what it points at must already be on the host.
 */

const NAMES = new Set([
  "NODE_OPTIONS",
  "NODE_PATH",
  "NODE_REPL_EXTERNAL_MODULE",
  "GCONV_PATH",
  "PYTHONPATH",
  "PYTHONHOME",
  "PYTHONSTARTUP",
  "PYTHONUSERBASE",
  "PYTHONEXECUTABLE",
  "PYTHONBREAKPOINT",
  "PYTHONWARNINGS",
  "PYTHONPYCACHEPREFIX",
  "PERL5OPT",
  "PERL5LIB",
  "PERLLIB",
  "PERL5DB",
  "RUBYOPT",
  "RUBYLIB",
  "PHPRC",
  "PHP_INI_SCAN_DIR",
  "BASH_ENV",
  "ENV",
  "SHELLOPTS",
  "BASHOPTS",
  "PS4",
  "PROMPT_COMMAND",
  "JAVA_TOOL_OPTIONS",
  "_JAVA_OPTIONS",
  "JDK_JAVA_OPTIONS",
  "CLASSPATH",
  "DOTNET_STARTUP_HOOKS",
  "PIP_INDEX_URL",
  "PIP_EXTRA_INDEX_URL",
  "PIP_FIND_LINKS",
  "UV_INDEX_URL",
  "UV_EXTRA_INDEX_URL",
  "UV_DEFAULT_INDEX",
  "UV_INDEX",
  "UV_FIND_LINKS",
  "GIT_SSH",
  "GIT_SSH_COMMAND",
  "GIT_ASKPASS",
  "SSH_ASKPASS",
  "GIT_EXEC_PATH",
  "GIT_EXTERNAL_DIFF",
  "GIT_PROXY_COMMAND",
])

const PREFIXES = [
  "LD_",
  "DYLD_",
  "BASH_FUNC_",
  "NPM_CONFIG_",
  "GIT_CONFIG",
  "LUA_INIT",
  "LUA_PATH",
  "LUA_CPATH",
  "CORECLR_PROFILER_PATH",
]

/** Whether setting this variable can make a program load or run code the variable names. */
export const loadsCode = (name: string): boolean => {
  const upper = name.toUpperCase()
  return NAMES.has(upper) || PREFIXES.some((prefix) => upper.startsWith(prefix))
}

/** The names in `env` that make a program load code, in the env's order. */
export const codeLoadingNames = (env: Readonly<Record<string, string>> | undefined): string[] =>
  Object.keys(env ?? {}).filter(loadsCode)
