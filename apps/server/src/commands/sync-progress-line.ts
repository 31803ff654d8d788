/**
 * The progress line a CLI command shows while it waits on a sync (`sources.add` / `sources.sync` with
 * `onProgress`): on a terminal one line, rewritten at each page of the source's listing; elsewhere (a pipe, a log
 * file) nothing per page, and one line at the end for a listing of more than one page.
 */
import type { DiscoveryProgress } from "@switchboard/core"

type Output = Pick<NodeJS.WriteStream, "write"> & { isTTY?: boolean }

const text = (namespace: string, { pages, tools }: DiscoveryProgress) =>
  `syncing ${namespace}: ${pages} ${pages === 1 ? "page" : "pages"} of tools/list read, ${tools} ${tools === 1 ? "tool" : "tools"}`

export const syncProgressLine = (namespace: string, output: Output = process.stderr) => {
  let last: DiscoveryProgress | undefined
  return {
    onProgress(progress: DiscoveryProgress) {
      last = progress
      // \r back to the line's start, \x1b[K clears what a longer line before left
      if (output.isTTY) output.write(`\r${text(namespace, progress)}\x1b[K`)
    },
    /** ends the line (the sync is over, whatever its outcome), so what is written next starts on a line of its own */
    end() {
      if (!last) return
      if (output.isTTY) output.write("\n")
      else if (last.pages > 1) output.write(`${text(namespace, last)}\n`)
    },
  }
}
