/**
 * A D1 database in local workerd (Miniflare, driven from Node), with drizzle/sqlite's migrations applied as D1
 * takes them: each migration's SQL, cut at drizzle-kit's statement breakpoints, one statement at a time.
 */
import { readFileSync } from "node:fs"
import { Miniflare } from "miniflare"

const migrations = new URL("../../../drizzle/sqlite/", import.meta.url)

/** the migrations' statements, in the journal's order */
export const sqliteMigrationStatements = (): string[] => {
  const journal = JSON.parse(readFileSync(new URL("meta/_journal.json", migrations), "utf8")) as {
    entries: { tag: string }[]
  }
  return journal.entries.flatMap(({ tag }) =>
    readFileSync(new URL(`${tag}.sql`, migrations), "utf8")
      .split("--> statement-breakpoint")
      .map((statement) => statement.trim())
      .filter((statement) => statement !== ""),
  )
}

export const startD1 = async () => {
  // offline, Miniflare would log a failed fetch of Request.cf at every start
  process.env.CLOUDFLARE_CF_FETCH_ENABLED = "false"
  const mf = new Miniflare({
    modules: true,
    script: "export default { fetch() { return new Response('') } }",
    d1Databases: { DB: "catalog" },
  })
  const d1 = await mf.getD1Database("DB")
  for (const statement of sqliteMigrationStatements()) await d1.prepare(statement).run()
  return { d1, dispose: () => mf.dispose() }
}
