/**
 * The HTTP scenario suite (@switchboard/fixtures/http-scenarios) on the Node host: `startServer` listening on a
 * loopback port, a SQLite catalog in a temporary folder, API keys required, scripts in the worker pool, and stdio
 * allowed for exactly one command (the contract fixture), so any other stdio source is refused as a server
 * without --allow-stdio refuses it.
 */
import { join } from "node:path"
import { SCENARIO_STDIO_COMMAND, httpScenarioSuite } from "@switchboard/fixtures/http-scenarios"
import { STDIO_DISABLED_MESSAGE } from "@switchboard/plugin-mcp"
import { startServer } from "../../src/serving/serve.js"
import { memoryLogger, tempDir } from "../support/helpers.js"

httpScenarioSuite(
  "the Node server",
  { stdio: true, stdioRefusal: { says: STDIO_DISABLED_MESSAGE }, contentLength: true },
  async () => {
    const dir = tempDir()
    const server = await startServer({
      db: join(dir.dir, "catalog.db"),
      hostname: "127.0.0.1",
      port: 0,
      requireKey: true,
      allowStdio: { exactly: [SCENARIO_STDIO_COMMAND] },
      logger: memoryLogger().logger,
    }).catch((cause: unknown) => {
      dir.remove()
      throw cause
    })
    return {
      url: server.url,
      adminKey: (await server.host.keys.create("scenario admin", ["admin"])).key,
      createKey: async (name, scopes) => (await server.host.keys.create(name, scopes)).key,
      async close() {
        await server.close()
        dir.remove()
      },
    }
  },
)
