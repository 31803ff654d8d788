/** Timing helpers for the execute-path bench: medians of repeated runs, in microseconds. */
import { performance } from "node:perf_hooks"

export const median = (samples: number[]) => [...samples].sort((a, b) => a - b)[samples.length >> 1] ?? Number.NaN

/** Median µs of `once`, after `warmup` unmeasured runs. */
export const timeUs = async (runs: number, once: () => unknown, warmup = Math.min(200, runs)): Promise<number> => {
  for (let index = 0; index < warmup; index++) await once()
  const samples: number[] = []
  for (let index = 0; index < runs; index++) {
    const started = performance.now()
    await once()
    samples.push((performance.now() - started) * 1000)
  }
  return median(samples)
}

export const mib = (bytes: number) => bytes / 2 ** 20
export const rssMiB = () => mib(process.memoryUsage().rss)

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** One printed line: the figure, its baseline and their ratio. */
export const ratioLine = (
  name: string,
  value: number,
  unit: string,
  baselineName: string,
  baseline: number,
  target?: string,
) =>
  `${name}: ${value.toFixed(1)} ${unit} | baseline ${baselineName}: ${baseline.toFixed(1)} ${unit} ` +
  `| ratio ${(value / baseline).toFixed(2)}x${target ? ` (target ${target})` : ""}`

/**
 * Median µs of each of `tasks`, run in turn after `warmup` rounds, so that every figure sees the same machine:
 * on a shared VM the cost of a thread hand-off drifts by 2x within a minute. With `block` > 1 each task runs
 * that many times in a row before the next one (1, 1, 1, 2, 2, 2, …): a figure about a stream of requests
 * then measures a stream, not one request after the other tasks have cooled its threads.
 */
export const timeInterleavedUs = async (
  runs: number,
  tasks: readonly (() => unknown)[],
  warmup = Math.min(200, runs),
  block = 1,
): Promise<number[]> => {
  for (let index = 0; index < warmup; index++) for (const task of tasks) await task()
  const samples = tasks.map((): number[] => [])
  for (let done = 0; done < runs; done += block) {
    for (const [at, task] of tasks.entries()) {
      for (let index = 0; index < Math.min(block, runs - done); index++) {
        const started = performance.now()
        await task()
        samples[at]!.push((performance.now() - started) * 1000)
      }
    }
  }
  return samples.map(median)
}
