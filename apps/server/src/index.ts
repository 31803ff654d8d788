/**
 * @switchboard/server — the Node self-host: composition (SQLite, MCP, QuickJS), the HTTP server and the CLI.
 */
export { buildHost, createHost, hostLayer } from "./compose.js"
export type { Host, HostOptions, HostServices } from "./compose.js"
export { startServer } from "./serving/serve.js"
export { createStderrLogger } from "./logging/logger.js"
export type { LogFormat, LogLevel, LogOptions } from "./logging/logger.js"
export type { RunningServer, ServeOptions } from "./serving/serve.js"
export { openSqlite, addMissingNullableColumns, sqliteMigrationsFolder } from "./database/sqlite-database.js"
export { openPostgres, migratePostgres, postgresMigrationsFolder } from "./database/postgres-database.js"
export { isPostgresUrl } from "./database/database-shape.js"
export { openCatalogDatabase } from "./database/catalog-database.js"
export type { CatalogDatabase } from "./database/catalog-database.js"
