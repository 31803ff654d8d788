/**
 * quickjs-emscripten's table of host functions (QuickJSRuntime.hostRefs, a HostRefMap with private fields). A
 * run that turns a global's accessor into a data property frees the accessor's host function, and with it its
 * entry: a sandbox put back as it was made (memory-snapshot.ts) needs the table as it was made too.
 */
import type { QuickJSRuntime } from "quickjs-emscripten-core"
import { runtimeInternals } from "./private-fields.js"

/** HostRefMap's private fields */
export interface HostRefTable {
  nextId: number
  freelist: number[]
  groups: Map<number, Map<number, unknown>>
}

export const isHostRefTable = (value: unknown): value is HostRefTable => {
  const table = value as Partial<HostRefTable> | undefined
  return typeof table?.nextId === "number" && Array.isArray(table.freelist) && table.groups instanceof Map
}

/** A copy of the runtime's table that can be put back; undefined when the table is not laid out as expected. */
export const saveHostRefs = (runtime: QuickJSRuntime): { restore(): void } | undefined => {
  const table = runtimeInternals(runtime).hostRefs
  if (!isHostRefTable(table)) return undefined
  const nextId = table.nextId
  const freelist = [...table.freelist]
  const groups = [...table.groups].map(([id, group]) => [id, [...group]] as const)
  return {
    restore() {
      table.nextId = nextId
      table.freelist = [...freelist]
      table.groups = new Map(groups.map(([id, group]) => [id, new Map(group)]))
    },
  }
}
