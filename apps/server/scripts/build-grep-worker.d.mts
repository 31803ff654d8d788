export declare const generatedPath: string
export declare function renderGrepWorker(): Promise<string>
