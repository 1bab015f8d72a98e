import { parseSamples, sampleValue } from "../tests/helpers/prometheus-text.js";
import { runLoad, type LoadOptions, type LoadResult } from "./load.js";
import { delay } from "./processes.js";
import { summarize, type Summary } from "./stats.js";
import { freePort } from "../tests/helpers/free-port.js";

/** How often the bench scrapes /metrics during the load: harsher than Prometheus's usual 15–60 s. */
export const SCRAPE_INTERVAL_MS = 5000;

export interface MetricsOnResult extends LoadResult {
  /** Time of a GET /metrics, as the scraper saw it. */
  scrapeMs: Summary;
  scrapeBytes: number;
  /** From the last scrape: turns the bot counted, and its mean own and model time per turn. */
  countedTurns: number;
  meanOwnMs: number;
  meanModelMs: number;
}

/** Section 1 again with METRICS_PORT set, /metrics scraped every 5 s: what metrics cost a turn. */
export async function measureTurnOverheadWithMetrics(options: LoadOptions): Promise<MetricsOnResult> {
  const port = await freePort();
  const scrapes: number[] = [];
  let last = "";
  let running = true;
  const scraper = (async () => {
    while (running) {
      await delay(SCRAPE_INTERVAL_MS);
      const started = performance.now();
      try {
        last = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
        scrapes.push(performance.now() - started);
      } catch {
        // not up yet, or already stopped
      }
    }
  })();
  const load = await runLoad("agentkit", { ...options, env: { ...options.env, METRICS_PORT: String(port) } });
  running = false;
  await scraper;
  const samples = parseSamples(last);
  const value = (name: string, labels: Record<string, string>) => sampleValue(samples, name, labels) ?? Number.NaN;
  const count = value("agentkit_turn_seconds_count", { part: "own" });
  return {
    ...load,
    scrapeMs: summarize(scrapes),
    scrapeBytes: last.length,
    countedTurns: count,
    meanOwnMs: (value("agentkit_turn_seconds_sum", { part: "own" }) / count) * 1000,
    meanModelMs: (value("agentkit_turn_seconds_sum", { part: "model" }) / count) * 1000,
  };
}
