/** `switchboard tools`: the catalog's tools, one per line. It reads the database alone: no host, no sandbox. */
import { parseArgs } from "node:util"
import { createDescribeService } from "@switchboard/core"
import { openCatalogDatabase } from "../catalog-database.js"
import { dbOption, existingCatalog } from "./common.js"

export const toolsCommand = async (args: string[]) => {
  const { values } = parseArgs({
    args,
    options: { ...dbOption, query: { type: "string" }, namespace: { type: "string" } },
  })
  const database = await openCatalogDatabase(existingCatalog(values.db))
  try {
    // the same ranking as GET /v1/tools?query= and tools.$search
    const tools = values.query?.trim()
      ? await createDescribeService(database.store).search(values.query, { namespace: values.namespace })
      : await database.store.listTools({ namespace: values.namespace })
    for (const tool of tools) process.stdout.write(`${tool.path}\t${(tool.description ?? "").split("\n")[0]}\n`)
  } finally {
    await database.close()
  }
  return 0
}
