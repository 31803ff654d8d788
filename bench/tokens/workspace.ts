/**
 * The data catalog (b)'s servers work on, the same before every task on each side: a folder of meeting notes for
 * server-filesystem and a knowledge graph for server-memory (its JSON-lines file). Made up, deterministic.
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"

const people = ["Ada", "Grace", "Linus", "Barbara", "Ken", "Margaret", "Dennis", "Frances"]
const projects = ["Atlas", "Beacon", "Cobalt", "Delta"]
const topics = ["the release plan", "the storage migration", "on-call rotation", "the pricing page", "the API review"]

/** Three of the twelve notes mention a deadline; each note is a dozen lines. */
export const noteNames = Array.from({ length: 12 }, (_, i) => `2026-11-${String(i + 3).padStart(2, "0")}-standup.md`)
export const DEADLINE_NOTES = new Set([2, 7, 10])

const noteText = (i: number) => {
  const project = projects[i % projects.length]!
  const lead = people[i % people.length]!
  const lines = [
    `# ${project} standup, ${noteNames[i]!.slice(0, 10)}`,
    "",
    `Present: ${people.filter((_, k) => (k + i) % 3 !== 0).join(", ")}.`,
    `${lead} led; we went over ${topics[i % topics.length]} and ${topics[(i + 2) % topics.length]}.`,
    "",
    "## Notes",
    `- ${people[(i + 1) % people.length]} finished the review of last week's changes to ${project}.`,
    `- ${people[(i + 2) % people.length]} is still looking into the flaky integration test; no root cause yet.`,
    `- The dashboard for ${project} now shows p95 latency; it sits around ${120 + i * 7} ms.`,
    DEADLINE_NOTES.has(i)
      ? `- The deadline for ${project}'s ${topics[(i + 1) % topics.length]} is Friday; ${lead} owns it.`
      : `- Nothing blocks ${project} this week.`,
    "",
    "## Next",
    `- ${people[(i + 3) % people.length]} writes up ${topics[(i + 3) % topics.length]} for the next meeting.`,
  ]
  return `${lines.join("\n")}\n`
}

const graphLines = () => {
  const entities = [
    ...people.map((name, i) => ({
      type: "entity",
      name,
      entityType: "person",
      observations: [`works on ${projects[i % projects.length]}`, `based in ${i % 2 ? "Berlin" : "Lisbon"}`],
    })),
    ...projects.map((name, i) => ({
      type: "entity",
      name,
      entityType: "project",
      observations: [`started in 202${3 + i}`, `owns ${topics[i]}`, `status: ${i % 2 ? "on track" : "at risk"}`],
    })),
  ]
  const relations = people.map((name, i) => ({
    type: "relation",
    from: name,
    to: projects[i % projects.length]!,
    relationType: i < projects.length ? "leads" : "contributes to",
  }))
  return [...entities, ...relations].map((line) => JSON.stringify(line)).join("\n")
}

export interface Workspace {
  dir: string
  notes: string
  memoryFile: string
  /** the notes and the graph as they were made, anything a task wrote removed */
  reset(): void
}

export const makeWorkspace = (dir: string): Workspace => {
  const notes = join(dir, "notes")
  const memoryFile = join(dir, "memory.jsonl")
  const reset = () => {
    rmSync(notes, { recursive: true, force: true })
    mkdirSync(notes, { recursive: true })
    noteNames.forEach((name, i) => writeFileSync(join(notes, name), noteText(i)))
    writeFileSync(memoryFile, graphLines())
    rmSync(join(dir, "summary.md"), { force: true })
  }
  reset()
  return { dir, notes, memoryFile, reset }
}
