/**
 * @switchboard/runtime-quickjs/node — the Node-only worker-thread pool around runScript. The package's
 * main entry stays host-neutral; this entry uses node:worker_threads and must never be imported by code
 * that runs on Cloudflare Workers.
 */
export { createWorkerPoolRuntime } from "./worker-pool.js"
export type { WorkerPoolOptions, WorkerPoolRuntime, WorkerPoolStats } from "./pool-options.js"
