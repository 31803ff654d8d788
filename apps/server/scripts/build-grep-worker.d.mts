export declare function buildGrepWorker(): Promise<void>
