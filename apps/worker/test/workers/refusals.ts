/** A test Worker (not shipped): what this workerd refuses, as production does; the bundle suite relies on it. */
export default {
  async fetch(): Promise<Response> {
    const attempt = async (work: () => unknown) => {
      try {
        await work()
        return "allowed"
      } catch (cause) {
        return `${(cause as Error).name}: ${(cause as Error).message}`
      }
    }
    // the smallest valid module: eight bytes
    const bytes = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0])
    return Response.json({
      newFunction: await attempt(() => new Function("return 1")()),
      eval: await attempt(() => (0, eval)("1")),
      wasmFromBytes: await attempt(() => WebAssembly.compile(bytes)),
    })
  },
}
