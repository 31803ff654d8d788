// The worked example's script (README.md, "A worked example"): each line of people.txt, read through the
// filesystem server, becomes an entity in the memory server's knowledge graph; the answer is the graph's names.
// A script, not a module (its top level returns): biome.json leaves examples/*.ts out.
const dirs = await tools.files.list_allowed_directories({})
if (!dirs.ok) throw new Error(dirs.error.message)
// "Allowed directories:\n/path": the one folder the server was given
const folder = dirs.data.content.split("\n")[1]
const file = await tools.files.read_text_file({ path: `${folder}/people.txt` })
if (!file.ok) throw new Error(file.error.message)
const entities = file.data.content
  .split("\n")
  .filter((line) => line.includes(":"))
  .map((line) => {
    const [name, fact] = line.split(":")
    return { name: name.trim(), entityType: "person", observations: [fact.trim()] }
  })
const created = await tools.memory.create_entities({ entities })
if (!created.ok) throw new Error(created.error.message)
const graph = await tools.memory.read_graph({})
if (!graph.ok) throw new Error(graph.error.message)
return graph.data.entities.map((e) => `${e.name} (${e.entityType}): ${e.observations.join("; ")}`).join("\n")
