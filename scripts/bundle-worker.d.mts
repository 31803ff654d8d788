export declare function bundleWorker(
  build: typeof import("esbuild").build,
  options: { entry: string; external: string[]; generatedBy: string; source: string; rebuild: string },
): Promise<string>
export declare function writeOutput(path: string, text: string): Promise<void>
