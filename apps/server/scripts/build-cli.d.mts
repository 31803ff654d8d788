export declare function buildCli(): Promise<void>
