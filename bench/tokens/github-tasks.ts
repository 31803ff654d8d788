/**
 * Catalog (c)'s tasks, on GitHub's REST API (the fixtures' stand-in, answering with the spec's examples). Natively the tools are named
 * as an importer names them (`issues_list-for-repo`); through Switchboard by the operationId (`issues/list-for-repo`).
 * Both sides send the same arguments.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js"
import { firstText } from "./task.js"
import type { Task } from "./task.js"

const repo = { owner: "octocat", repo: "Hello-World" }

/** A native importer's answer is the response body as text: the model reads it, the bench parses it. */
const bodyOf = async <T>(result: Promise<CallToolResult>) => JSON.parse(firstText(await result)) as T

const openBugs: Task = {
  name: "the open issues labelled bug, with their authors",
  searches: ["list repository issues"],
  uses: ["github.issues/list-for-repo"],
  script: `const r = await tools.github["issues/list-for-repo"](${JSON.stringify({ ...repo, state: "open", labels: "bug" })})
if (!r.ok) return r.error
return r.data.map((i) => \`#\${i.number} \${i.title} (@\${i.user?.login})\`).join("\\n")`,
  async native(call) {
    await bodyOf(call("github.issues_list-for-repo", { ...repo, state: "open", labels: "bug" }))
  },
  done: (text) =>
    text.split("\n").length === 4 &&
    text.startsWith("#1347 Found a bug (@octocat)\n#1348 Crash when the config file is empty (@hubot)"),
}

const pull = { ...repo, pull_number: 1347 }

const pullFilesAndChecks: Task = {
  name: "a pull request's changed files and its status checks",
  searches: ["get a pull request", "pull request files", "check runs for a ref"],
  uses: ["github.pulls/get", "github.pulls/list-files", "github.checks/list-for-ref"],
  // the pull request's data is declared to one level: `head` names `sha` without its type
  fields: { "github.pulls/get": ["number", "title", "state", "head.sha"] },
  script: `const pr = await tools.github["pulls/get"](${JSON.stringify(pull)})
if (!pr.ok) return pr.error
const [files, checks] = await Promise.all([
  tools.github["pulls/list-files"](${JSON.stringify(pull)}),
  tools.github["checks/list-for-ref"]({ owner: "octocat", repo: "Hello-World", ref: pr.data.head.sha }),
])
if (!files.ok || !checks.ok) return [files, checks]
return [
  \`#\${pr.data.number} \${pr.data.title} (\${pr.data.state})\`,
  ...files.data.map((f) => \`\${f.status} \${f.filename} +\${f.additions} -\${f.deletions}\`),
  ...checks.data.check_runs.map((c) => \`\${c.name}: \${c.conclusion ?? c.status}\`),
].join("\\n")`,
  async native(call) {
    const pr = await bodyOf<{ head: { sha: string } }>(call("github.pulls_get", pull))
    await bodyOf(call("github.pulls_list-files", pull))
    await bodyOf(call("github.checks_list-for-ref", { ...repo, ref: pr.head.sha }))
  },
  done: (text) => text.split("\n").length === 8 && text.includes("test: failure"),
}

const search = { q: "tetris in:name", per_page: 5 }

const latestReleases: Task = {
  name: "find a repository and list its latest releases",
  searches: ["search repositories", "list releases"],
  uses: ["github.search/repos", "github.repos/list-releases"],
  script: `const found = await tools.github["search/repos"](${JSON.stringify(search)})
if (!found.ok) return found.error
const top = found.data.items[0]
if (!top?.owner) return "no repository found"
const listed = await tools.github["repos/list-releases"]({ owner: top.owner.login, repo: top.name, per_page: 3 })
if (!listed.ok) return listed.error
return [top.full_name, ...listed.data.map((r) => \`\${r.tag_name} \${r.published_at}\`)].join("\\n")`,
  async native(call) {
    const found = await bodyOf<{ items: { name: string; owner: { login: string } }[] }>(
      call("github.search_repos", search),
    )
    const [top] = found.items
    await bodyOf(call("github.repos_list-releases", { owner: top!.owner.login, repo: top!.name, per_page: 3 }))
  },
  done: (text) => text.split("\n").length === 4 && text.startsWith("dtrupenn/Tetris\nv1.4.0 "),
}

export const githubTasks: Task[] = [openBugs, pullFilesAndChecks, latestReleases]
