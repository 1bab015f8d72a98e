import type { LoadResult } from "./load.js";
import { SCRAPE_INTERVAL_MS, type MetricsOnResult } from "./metrics-on.js";
import { ratio, round, type Summary } from "./stats.js";

const fmt = (value: number | null | undefined, digits = 1): string =>
  value === null || value === undefined || Number.isNaN(value) ? "–" : Number.isFinite(value) ? String(round(value, digits)) : "∞";

/** `--metrics`: AgentKit with metrics off and on, beside the floor. */
export function renderMetricsOn(off: LoadResult | undefined, on: MetricsOnResult, floor: LoadResult | undefined): string {
  const rows: string[][] = [];
  const figure = (metric: string, pick: (r: LoadResult) => number, digits = 1) => {
    const [a, b, f] = [off && pick(off), pick(on), floor && pick(floor)];
    rows.push([
      metric,
      fmt(a, digits),
      fmt(b, digits),
      fmt(f, digits),
      a === undefined ? "–" : fmt(ratio(b, a), 2),
      f === undefined ? "–" : fmt(ratio(b, f), 2),
    ]);
  };
  for (const [name, key] of [
    ["to model", "toModelMs"],
    ["to final edit", "toFinalMs"],
  ] as const) {
    for (const p of ["p50", "p95", "p99"] as const) figure(`${name} ${p} (ms)`, (r) => (r[key] as Summary)[p]);
  }
  figure("bot CPU per turn (ms, user+sys)", (r) => r.botCpuMsPerTurn);
  figure("bot peak RSS during load (MB)", (r) => r.botPeakRssMb);
  figure("REST calls per turn", (r) => r.restPerTurn, 2);
  figure("turns completed", (r) => r.turnsCompleted, 0);
  const line = (cells: string[]) => `| ${cells.join(" | ")} |`;
  const header = ["metric", "AgentKit, metrics off", "AgentKit, metrics on", "floor", "on ÷ off", "on ÷ floor"];
  return [
    `Metrics on (METRICS_PORT set, /metrics scraped every ${SCRAPE_INTERVAL_MS / 1000} s during the load):`,
    "",
    line(header),
    line(header.map(() => "---")),
    ...rows.map(line),
    "",
    `/metrics scrape: ${on.scrapeMs.n} scrapes, p50 ${fmt(on.scrapeMs.p50)} ms, max ${fmt(on.scrapeMs.max)} ms, ${fmt(on.scrapeBytes / 1024)} KB · ` +
      `the bot's own histogram (last scrape, ${fmt(on.countedTurns, 0)} turns): mean own ${fmt(on.meanOwnMs, 2)} ms, mean model ${fmt(on.meanModelMs, 1)} ms per turn`,
  ].join("\n");
}
