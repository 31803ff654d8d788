/**
 * How the CLI's process ends, used by its entry (src/cli.ts) alone: no command calls `process.exit`. Node writes to
 * a pipe asynchronously, so an exit right after a large write drops what the reader has not taken yet (a pipe holds
 * 64 KiB): the entry waits for stdout and stderr to hand everything to the OS first. A reader that closes its end
 * (`switchboard tools | head -1`) makes the next write fail with EPIPE: the reader took what it wanted and nobody is
 * left to tell, so the command ends quietly, exit 0, rather than with a stack and exit 1.
 */

/** resolves once everything written to `stream` so far has been handed to the OS, or the stream has failed */
const drained = (stream: NodeJS.WriteStream) =>
  new Promise<void>((resolve) => {
    if (stream.destroyed || stream.writableLength === 0) return resolve()
    // callbacks run in order: this one once every earlier write has been flushed (or failed)
    stream.write("", () => resolve())
  })

export const endProcess = async (code: number): Promise<never> => {
  await Promise.all([drained(process.stdout), drained(process.stderr)])
  process.exit(code)
}

/** a closed pipe on stdout or stderr ends the process at once, exit 0; any other write error is thrown as before */
export const endQuietlyOnClosedPipe = () => {
  const closed = (error: NodeJS.ErrnoException) => {
    if (error.code !== "EPIPE") throw error
    process.exit(0)
  }
  process.stdout.on("error", closed)
  process.stderr.on("error", closed)
}
