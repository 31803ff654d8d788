/**
 * @switchboard/runtime-quickjs/node — the Node-only worker-thread pool around runScript. The package's
 * main entry stays host-neutral; this entry uses node:worker_threads and must never be imported by code
 * that runs on Cloudflare Workers.
 */
export { createWorkerPoolRuntime, startWorkerPoolRuntime } from "./worker-pool.js"
// also here: a host that runs scripts only in the pool checks its flags against it without loading the runtime
export { maxStackBytes } from "../stack-limit.js"
export type { WorkerPoolOptions, WorkerPoolRuntime, WorkerPoolStats } from "./pool-options.js"
