/** Catalog (b)'s tasks, on server-everything, server-memory and server-filesystem over ./workspace.ts's data. */
import { join } from "node:path"
import { firstText, structuredOf } from "./task.js"
import type { Task } from "./task.js"
import type { Workspace } from "./workspace.js"
import { DEADLINE_NOTES } from "./workspace.js"

interface Graph {
  entities: { name: string; entityType: string; observations: string[] }[]
  relations: { from: string; to: string; relationType: string }[]
}

/** The summary a model writes from the graph; the script writes the same lines. */
const summaryOf = ({ entities, relations }: Graph) => {
  const lines = ["# Memory graph", "", `${entities.length} entities, ${relations.length} relations.`, ""]
  for (const e of entities) {
    const related = relations.filter((r) => r.from === e.name).map((r) => `${r.relationType} ${r.to}`)
    lines.push(`- ${e.name} (${e.entityType}): ${[...e.observations, ...related].join("; ")}`)
  }
  return `${lines.join("\n")}\n`
}

const summarize = (workspace: Workspace): Task => ({
  name: "read the memory graph and write a summary file",
  searches: ["memory graph", "write file"],
  uses: ["memory.read_graph", "files.write_file"],
  script: `const graph = await tools.memory.read_graph({})
if (!graph.ok) return graph.error
const { entities, relations } = graph.data
const lines = ["# Memory graph", "", \`\${entities.length} entities, \${relations.length} relations.\`, ""]
for (const e of entities) {
  const related = relations.filter((r) => r.from === e.name).map((r) => \`\${r.relationType} \${r.to}\`)
  lines.push(\`- \${e.name} (\${e.entityType}): \${[...e.observations, ...related].join("; ")}\`)
}
const written = await tools.files.write_file({ path: ${JSON.stringify(join(workspace.dir, "summary.md"))}, content: lines.join("\\n") + "\\n" })
return written.ok ? \`summary.md: \${entities.length} entities, \${relations.length} relations\` : written.error`,
  async native(call) {
    const graph = structuredOf<Graph>(await call("memory.read_graph", {}))
    firstText(await call("files.write_file", { path: join(workspace.dir, "summary.md"), content: summaryOf(graph) }))
  },
  done: (text) => text === "summary.md: 12 entities, 8 relations",
})

const deadlines = (workspace: Workspace): Task => ({
  name: "which notes mention a deadline",
  searches: ["list directory", "read file"],
  uses: ["files.list_directory", "files.read_text_file"],
  script: `const dir = ${JSON.stringify(workspace.notes)}
const listed = await tools.files.list_directory({ path: dir })
if (!listed.ok) return listed.error
const names = listed.data.content.split("\\n").filter((l) => l.startsWith("[FILE] ")).map((l) => l.slice(7))
const found = []
for (const name of names) {
  const file = await tools.files.read_text_file({ path: dir + "/" + name })
  const line = file.ok && file.data.content.split("\\n").find((l) => /deadline/i.test(l))
  if (line) found.push(name + ": " + line.replace(/^- /, ""))
}
return found.join("\\n")`,
  async native(call) {
    const listed = structuredOf<{ content: string }>(await call("files.list_directory", { path: workspace.notes }))
    const names = listed.content
      .split("\n")
      .filter((line) => line.startsWith("[FILE] "))
      .map((line) => line.slice(7))
    // a model reads them all in one call where the server offers it
    firstText(await call("files.read_multiple_files", { paths: names.map((name) => join(workspace.notes, name)) }))
  },
  done: (text) => text.split("\n").length === DEADLINE_NOTES.size && text.includes("deadline"),
})

const locations = ["New York", "Chicago", "Los Angeles"]

const weatherToMemory: Task = {
  name: "weather of three cities into memory",
  searches: ["weather structured content", "create entities"],
  uses: ["everything.get-structured-content", "memory.create_entities"],
  script: `const entities = []
for (const location of ${JSON.stringify(locations)}) {
  const r = await tools.everything["get-structured-content"]({ location })
  if (!r.ok) return r.error
  const { temperature, conditions, humidity } = r.data
  entities.push({ name: location, entityType: "city", observations: [\`\${temperature}°C, \${conditions}, humidity \${humidity}%\`] })
}
const made = await tools.memory.create_entities({ entities })
return made.ok ? entities.map((e) => e.name + ": " + e.observations[0]).join("\\n") : made.error`,
  async native(call) {
    const entities = []
    for (const location of locations) {
      const { temperature, conditions, humidity } = structuredOf<{
        temperature: number
        conditions: string
        humidity: number
      }>(await call("everything.get-structured-content", { location }))
      entities.push({
        name: location,
        entityType: "city",
        observations: [`${temperature}°C, ${conditions}, humidity ${humidity}%`],
      })
    }
    structuredOf(await call("memory.create_entities", { entities }))
  },
  done: (text) => text.split("\n").length === locations.length && text.startsWith("New York: "),
}

export const referenceTasks = (workspace: Workspace): Task[] => [
  summarize(workspace),
  deadlines(workspace),
  weatherToMemory,
]
