export declare function bundleWorker(options: {
  entry: string
  external: string[]
  generatedBy: string
  source: string
  rebuild: string
}): Promise<string>
