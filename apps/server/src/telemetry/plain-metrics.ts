/**
 * Counters and histograms counted in plain maps, for the per-request and per-tool-call paths, and handed to a
 * prom-client registry, which formats them when /metrics is scraped. prom-client's own `child.inc()` hashes and
 * checks its label object on every call, which shows on a trivial execute (bench/host-ab.ts); here a count is a
 * string key, a Map lookup and an add. Up to three label values, each from a bounded set (the caller's job:
 * metrics.ts). They count from the start; prom-client is loaded, and they are registered with it, only later
 * (`registerPlain`): it is slow to load.
 */
import type { Registry } from "prom-client"

interface Series {
  labels: Record<string, string>
  value: number
}

interface HistogramSeries {
  labels: Record<string, string>
  /** observations per bucket (not cumulative), the last for +Inf */
  counts: number[]
  sum: number
  count: number
}

/** What prom-client's registry asks of a metric: its name, help, type and `get()` (registry.js getMetricsAsString). */
export interface PlainMetric {
  name: string
  help: string
  type: string
  get(): Promise<object>
}

const described = (name: string, help: string, type: string, values: () => object[]): PlainMetric => ({
  name,
  help,
  type,
  get: async () => ({ name, help, type, aggregator: "sum", values: values() }),
})

export const registerPlain = (registry: Registry, metric: PlainMetric) =>
  registry.registerMetric(metric as unknown as Parameters<Registry["registerMetric"]>[0])

const labelsOf = (names: readonly string[], values: readonly string[]) =>
  Object.fromEntries(names.map((name, i) => [name, values[i]!]))

export const plainCounter = (name: string, help: string, labelNames: readonly string[] = []) => {
  const series = new Map<string, Series>()
  // a count without labels is there from the start, at 0
  if (labelNames.length === 0) series.set("\u0000\u0000", { labels: {}, value: 0 })
  return {
    metric: described(name, help, "counter", () => [...series.values()]),
    inc(a = "", b = "", c = "") {
      const key = `${a}\u0000${b}\u0000${c}`
      const found = series.get(key)
      if (found) found.value++
      else series.set(key, { labels: labelsOf(labelNames, [a, b, c]), value: 1 })
    },
  }
}

export const plainHistogram = (
  name: string,
  help: string,
  buckets: readonly number[],
  labelNames: readonly string[] = [],
) => {
  const series = new Map<string, HistogramSeries>()
  const bounds = [...buckets.map(String), "+Inf"]
  const metric = described(name, help, "histogram", () =>
    [...series.values()].flatMap(({ labels, counts, sum, count }) => {
      let below = 0
      return [
        ...counts.map((n, i) => ({
          labels: { ...labels, le: bounds[i]! },
          value: (below += n),
          metricName: `${name}_bucket`,
        })),
        { labels, value: sum, metricName: `${name}_sum` },
        { labels, value: count, metricName: `${name}_count` },
      ]
    }),
  )
  return {
    metric,
    observe(value: number, a = "", b = "") {
      const key = `${a}\u0000${b}`
      let found = series.get(key)
      if (!found) {
        found = { labels: labelsOf(labelNames, [a, b]), counts: new Array(bounds.length).fill(0), sum: 0, count: 0 }
        series.set(key, found)
      }
      let i = 0
      while (i < buckets.length && value > buckets[i]!) i++
      found.counts[i]!++
      found.sum += value
      found.count++
    },
  }
}
