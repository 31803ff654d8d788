/**
 * @switchboard/plugin-openapi — the SourcePlugin for REST APIs described by an OpenAPI 3.0 or 3.1 document: each
 * operation is a tool, called with fetch. Web APIs only: it runs on the Node host and on Workers. The host hands it
 * its egress (a fetch that refuses private addresses where the host does).
 */
export { parseSpec } from "./spec/parse-spec.js"
export type { OpenApiDocument } from "./spec/parse-spec.js"
export { compileSpec } from "./derive/compile.js"
export type { CompiledSpec } from "./derive/compile.js"
export type { OperationBinding } from "./binding.js"
export { createOpenApiPlugin, OpenApiPlugin } from "./plugin.js"
export type { OpenApiPluginOptions } from "./plugin.js"
export { openApiSourceConfig, openApiSourcePatch } from "./config-schema.js"
export type { OpenApiSourceConfig } from "./config-schema.js"
export { openApiConfigView } from "./config-view.js"
