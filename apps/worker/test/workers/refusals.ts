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
      // workers-types leaves compile-from-bytes out on purpose: the call is made as plain JS would make it
      wasmFromBytes: await attempt(() =>
        (WebAssembly as unknown as { compile(b: Uint8Array): Promise<unknown> }).compile(bytes),
      ),
    })
  },
}
