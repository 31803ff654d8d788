export declare const generatedPath: string
export declare function renderPreludeModule(): Promise<string>
