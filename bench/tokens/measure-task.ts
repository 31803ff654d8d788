/** One task done both ways, and the tokens each way puts in front of the model. */
import type { NativeSide } from "./native.js"
import type { SwitchboardSide } from "./switchboard.js"
import type { Task } from "./task.js"
import { typeCheck } from "./type-check.js"

export interface NativeTaskCost {
  calls: number
  /** the calls' arguments, as the model writes them */
  arguments: number
  /** the results with their envelopes, as the SDK returns them */
  results: number
  /** the same results' text blocks alone */
  resultTexts: number
}

export interface SwitchboardTaskCost {
  describes: number
  /** describe requests and their answers */
  describe: number
  /** the execute call: the script, JSON-quoted in its arguments */
  script: number
  result: number
  resultText: string
}

export const runNative = async (side: NativeSide, task: Task): Promise<NativeTaskCost> => {
  const cost: NativeTaskCost = { calls: 0, arguments: 0, results: 0, resultTexts: 0 }
  await task.native(async (path, args) => {
    const made = await side.run({ path, args })
    cost.calls++
    cost.arguments += made.call
    cost.results += made.result
    cost.resultTexts += made.resultText
    return made.returned
  })
  return cost
}

/** How describe's TypeScript names a method: a plain identifier, else a quoted key. */
const methodKey = (path: string) => {
  const name = path.slice(path.indexOf(".") + 1)
  return /^[A-Za-z_$][\w$]*$/.test(name) ? name : JSON.stringify(name)
}

/** `typeCheck`: the script must compile against the declarations describe gave (tools whose data is declared). */
export const runSwitchboard = async (
  side: SwitchboardSide,
  task: Task,
  options: { typeCheck?: boolean } = {},
): Promise<SwitchboardTaskCost> => {
  const cost = { describes: 0, describe: 0 }
  const answers: string[] = []
  const describe = async (args: Record<string, unknown>) => {
    const answer = await side.describe(args)
    if (answer.isError) throw new Error(`describe ${JSON.stringify(args)} failed: ${answer.text}`)
    cost.describes++
    cost.describe += answer.call + answer.answer
    answers.push(answer.text)
  }
  for (const query of task.searches) await describe({ query })
  // a model finds each tool it uses by searching: a search that misses one makes the task's figures meaningless
  const found = (path: string) => answers.some((text) => text.split("\n").some((line) => line.startsWith(`${path} `)))
  const unfound = task.uses.filter((path) => !found(path))
  if (unfound.length > 0) throw new Error(`"${task.name}": no search answered ${unfound.join(", ")}`)
  // a tool the searches did not declare is then asked for by path, as a model would
  const undeclared = task.uses.filter((path) => !answers.some((text) => text.includes(`${methodKey(path)}(args`)))
  if (undeclared.length > 0) await describe({ paths: undeclared })
  // then the fields the script reads that the declaration left as records naming them
  for (const [path, fields] of Object.entries(task.fields ?? {})) await describe({ paths: [path], fields })
  if (options.typeCheck) {
    // what the model learnt, in one answer: each tool as last declared (a tool without the fields keeps its first)
    const fields = Object.values(task.fields ?? {}).flat()
    const learnt = await side.describe({ paths: task.uses, ...(fields.length > 0 ? { fields } : {}) })
    const problems = typeCheck(learnt.text, task.script)
    if (problems.length > 0)
      throw new Error(
        `the script for "${task.name}" does not type-check against describe's answer:\n${problems.join("\n")}`,
      )
  }
  const run = await side.execute(task.script)
  if (run.isError || !task.done(run.text))
    throw new Error(`the script for "${task.name}" did not do the task: ${run.text.slice(0, 2000)}`)
  return { ...cost, script: run.call, result: run.answer, resultText: run.text }
}
