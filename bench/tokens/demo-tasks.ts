/** Catalog (a)'s tasks, on the demo's server: weather, todos and greet, add. */
import { firstText, structuredOf } from "./task.js"
import type { Task } from "./task.js"

const cities = ["Lisbon", "Oslo", "Nairobi", "Lima", "Osaka"]
const numbers = [3, 14, 15, 92, 65, 35, 89, 79, 32, 38, 46, 26]

interface Weather {
  city: string
  temperature: number
  conditions: string
}

const warmest: Task = {
  name: "the warmest of five cities",
  searches: ["weather"],
  uses: ["demo.weather"],
  script: `const readings = []
for (const city of ${JSON.stringify(cities)}) {
  const r = await tools.demo.weather({ city })
  if (r.ok) readings.push(r.data)
}
readings.sort((a, b) => b.temperature - a.temperature)
const top = readings[0]
return \`\${top.city}: \${top.temperature}°C, \${top.conditions}\``,
  async native(call) {
    for (const city of cities) structuredOf<Weather>(await call("demo.weather", { city }))
  },
  done: (text) => /^\w+: \d+°C, /.test(text),
}

const openTodos: Task = {
  name: "greet Ada with her open todos",
  searches: ["todos", "greet"],
  uses: ["demo.list_todos", "demo.greet"],
  script: `const todos = await tools.demo.list_todos({})
const hello = await tools.demo.greet({ name: "Ada" })
if (!todos.ok || !hello.ok) return [todos, hello]
const open = todos.data.filter((t) => !t.done).map((t) => t.title)
return \`\${hello.data} You have \${open.length} open todos: \${open.join(", ")}.\``,
  async native(call) {
    firstText(await call("demo.list_todos", {}))
    firstText(await call("demo.greet", { name: "Ada" }))
  },
  done: (text) => text.startsWith("Hello, Ada!") && text.includes("2 open todos"),
}

const addUp: Task = {
  name: "add up twelve numbers",
  searches: ["add numbers"],
  uses: ["demo.add"],
  script: `let total = 0
for (const n of ${JSON.stringify(numbers)}) {
  const r = await tools.demo.add({ a: total, b: n })
  if (!r.ok) return r.error
  total = r.data.sum
}
return total`,
  async native(call) {
    let total = numbers[0]!
    for (const n of numbers.slice(1))
      total = structuredOf<{ sum: number }>(await call("demo.add", { a: total, b: n })).sum
  },
  done: (text) => text === String(numbers.reduce((sum, n) => sum + n, 0)),
}

export const demoTasks: Task[] = [warmest, openTodos, addUp]
