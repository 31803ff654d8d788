export declare function buildCli(): Promise<import("esbuild").Metafile[]>
