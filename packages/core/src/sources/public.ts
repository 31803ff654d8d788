/** The sources service and the view of a source that routes show. */
export { sourceView } from "./source-view.js"
export type { SourceView } from "./source-view.js"
export { createSourcesService } from "./sources-service.js"
export type { SourcesService, SourceUpdate } from "./sources-service.js"
export type { ProgressListener } from "./sync-progress.js"
