export declare const generatedPath: string
export declare function renderWorkerModule(): Promise<string>
