// `pnpm check` runs this before the packages' checks: no line of the repository's code is over 160 characters.
// The formatter wraps code at 120 but leaves a long string, template or comment as it is; this catches those.
// It reads the files git knows (tracked, and new ones not ignored), prints each long line as file:line and exits 1.
//   node scripts/check-line-length.mjs
import { spawnSync } from "node:child_process"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"

const LIMIT = 160
const CODE = ["*.ts", "*.tsx", "*.mts", "*.cts", "*.js", "*.mjs", "*.cjs"]

const root = fileURLToPath(new URL("..", import.meta.url))
const listed = spawnSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard", "--", ...CODE], {
  cwd: root,
  encoding: "utf8",
  maxBuffer: 64 << 20,
})
if (listed.status !== 0) {
  process.stderr.write(`check-line-length: git ls-files failed: ${listed.stderr || listed.error?.message}\n`)
  process.exit(2)
}

const read = (file) => {
  try {
    return readFileSync(join(root, file), "utf8")
  } catch (error) {
    // listed by git but deleted in the work tree and not yet committed
    if (error.code === "ENOENT") return ""
    throw error
  }
}

const long = []
for (const file of new Set(listed.stdout.split("\0").filter(Boolean))) {
  const lines = read(file).split(/\r?\n/)
  for (const [index, line] of lines.entries()) {
    // characters as an editor counts them: code points, not UTF-16 units
    const length = [...line].length
    if (length > LIMIT) long.push(`${file}:${index + 1}: ${length} characters`)
  }
}

if (long.length > 0) {
  process.stderr.write(
    `${long.join("\n")}\n${long.length} line${long.length === 1 ? "" : "s"} over ${LIMIT} characters: ` +
      "break the string or move a long message into a table\n",
  )
  process.exit(1)
}
