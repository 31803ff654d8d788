/**
 * In-process exclusion by key: `run(keys, work)` starts `work` once every earlier run that named one of its keys
 * has ended, and holds its keys until `work` settles. A run takes all of its keys at once, in call order, so two
 * runs never wait on each other.
 */
export type KeyLock = <T>(keys: readonly string[], work: () => Promise<T>) => Promise<T>

export const createKeyLock = (): KeyLock => {
  const tails = new Map<string, Promise<void>>()
  return async (keys, work) => {
    const earlier: Promise<void>[] = []
    for (const key of keys) {
      const tail = tails.get(key)
      if (tail) earlier.push(tail)
    }
    let release = () => {}
    const held = new Promise<void>((resolve) => {
      release = resolve
    })
    for (const key of keys) tails.set(key, held)
    try {
      if (earlier.length > 0) await Promise.all(earlier)
      return await work()
    } finally {
      release()
      for (const key of keys) if (tails.get(key) === held) tails.delete(key)
    }
  }
}
