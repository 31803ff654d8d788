/**
 * The end of this turn. Node's setImmediate runs right after the I/O callbacks of the current loop turn: every
 * worker message and socket read that finished executions together, at no added delay. setTimeout(0) would do
 * the same but Node clamps it to 1 ms, added to every execute's answer. A microtask window would add nothing but
 * batch nothing: Node drains microtasks after each callback, so it would only ever hold one callback's records.
 * Where setImmediate is missing (Cloudflare Workers without nodejs_compat), setTimeout(0) is the next task;
 * there the write goes to D1 over the network, which costs far more than one turn.
 */
export const afterThisTurn: (run: () => void) => void = (() => {
  const setImmediate = (globalThis as { setImmediate?: (run: () => void) => unknown }).setImmediate
  return typeof setImmediate === "function" ? (run) => void setImmediate(run) : (run) => void setTimeout(run, 0)
})()
