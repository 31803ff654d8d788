/**
 * @switchboard/server — the Node self-host: composition (SQLite, MCP, QuickJS), the HTTP server and the CLI.
 */
export { buildHost, createHost, hostLayer } from "./compose.js"
export type { Host, HostOptions, HostServices } from "./compose.js"
export { startServer } from "./serve.js"
export { createStderrLogger } from "./logger.js"
export type { LogFormat, LogLevel, LogOptions } from "./logger.js"
export type { RunningServer, ServeOptions } from "./serve.js"
export { openSqlite, addMissingNullableColumns, sqliteMigrationsFolder } from "./sqlite-database.js"
export { openPostgres, migratePostgres, isPostgresUrl, postgresMigrationsFolder } from "./postgres-database.js"
export { openCatalogDatabase } from "./catalog-database.js"
export type { CatalogDatabase } from "./catalog-database.js"
