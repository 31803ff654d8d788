/**
 * Peak resident memory of a process, from /proc: its high-water mark is reset (`clear_refs` 5), then read back
 * (VmHWM) after the work, so a figure is the peak during that work alone, against the RSS it started from.
 */
import { readFileSync, readdirSync, writeFileSync } from "node:fs"

const statusField = (pid: number | "self", field: "VmRSS" | "VmHWM") => {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB$`, "m").exec(readFileSync(`/proc/${pid}/status`, "utf8"))
  if (!match) throw new Error(`no ${field} for ${pid}`)
  return Number(match[1]) * 1024
}

/** Runs `work`; the process's RSS before it and its peak RSS during it, in MiB. */
export const peakDuring = async <A>(pid: number | "self", work: () => Promise<A>) => {
  writeFileSync(`/proc/${pid}/clear_refs`, "5")
  const before = statusField(pid, "VmRSS")
  const value = await work()
  const peak = statusField(pid, "VmHWM")
  return { value, beforeMiB: before / 2 ** 20, peakMiB: peak / 2 ** 20 }
}

/** The pid of this process's child whose command is `name` (Miniflare's workerd). */
export const childNamed = (name: string): number => {
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8")
      const comm = /\((.*)\)/.exec(stat)?.[1]
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1])
      if (comm === name && ppid === process.pid) return Number(entry)
    } catch {
      // a process that ended while the list was read
    }
  }
  throw new Error(`no child process named ${name}`)
}
