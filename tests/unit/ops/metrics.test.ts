import { register } from "prom-client";
import { describe, expect, it } from "vitest";
import type { SessionStatus } from "../../../src/lib/telemetry.js";
import { createMetrics } from "../../../src/ops/metrics.js";
import { parseSamples, sampleValue } from "../../helpers/prometheus-text.js";

const counts: Record<SessionStatus, number> = { open: 3, closing: 1, "pending-summary": 2, closed: 40 };

async function scrape(metrics: ReturnType<typeof createMetrics>) {
  return parseSamples(await metrics.registry.metrics());
}

describe("the tidy-up's metrics", () => {
  it("count runs by outcome, operations by kind and drops by check, every series there from the start, no unknown word a label", async () => {
    const metrics = createMetrics();
    const fresh = await scrape(metrics);
    expect(sampleValue(fresh, "agentkit_tidy_runs_total", { outcome: "failed-changed" })).toBe(0);
    expect(sampleValue(fresh, "agentkit_tidy_dropped_total", { check: "quote" })).toBe(0);
    metrics.telemetry.tidyRun?.("done", { merge: 2, replace: 1 }, { quote: 1, "bounded-loss": 2 });
    metrics.telemetry.tidyRun?.("failed-model", {}, {});
    metrics.telemetry.tidyRun?.("nothing", { "12345678901234567": 1 }, { "a person's words": 1 });
    const samples = await scrape(metrics);
    expect(sampleValue(samples, "agentkit_tidy_runs_total", { outcome: "done" })).toBe(1);
    expect(sampleValue(samples, "agentkit_tidy_runs_total", { outcome: "failed-model" })).toBe(1);
    expect(sampleValue(samples, "agentkit_tidy_operations_total", { kind: "merge" })).toBe(2);
    expect(sampleValue(samples, "agentkit_tidy_operations_total", { kind: "replace" })).toBe(1);
    expect(sampleValue(samples, "agentkit_tidy_dropped_total", { check: "quote" })).toBe(1);
    expect(sampleValue(samples, "agentkit_tidy_dropped_total", { check: "bounded-loss" })).toBe(2);
    const text = await metrics.registry.metrics();
    expect(text).not.toContain("12345678901234567");
    expect(text).not.toContain("a person's words");
  });
});

describe("the metrics registry", () => {
  it("renders turns, turn time by part, model requests, tokens and memory writes under fixed labels", async () => {
    const metrics = createMetrics();
    metrics.telemetry.turn("ok", 4, 1200);
    metrics.telemetry.turn("error", 2, 30);
    metrics.telemetry.modelRequest("ok");
    metrics.telemetry.modelRequest("server");
    metrics.telemetry.tokens({ promptTokens: 900, completionTokens: 40, cachedTokens: 512 });
    metrics.telemetry.memoryWrite("saved");
    metrics.telemetry.memoryWrite("over-cap");
    const samples = await scrape(metrics);

    expect(sampleValue(samples, "agentkit_turns_total", { outcome: "ok" })).toBe(1);
    expect(sampleValue(samples, "agentkit_turns_total", { outcome: "error" })).toBe(1);
    expect(sampleValue(samples, "agentkit_turns_total", { outcome: "stopped" })).toBe(0);
    expect(sampleValue(samples, "agentkit_turn_seconds_count", { part: "own" })).toBe(2);
    expect(sampleValue(samples, "agentkit_turn_seconds_sum", { part: "own" })).toBeCloseTo(0.006);
    expect(sampleValue(samples, "agentkit_turn_seconds_sum", { part: "model" })).toBeCloseTo(1.23);
    expect(sampleValue(samples, "agentkit_turn_seconds_bucket", { part: "own", le: "0.005" })).toBe(2);
    expect(sampleValue(samples, "agentkit_turn_seconds_bucket", { part: "model", le: "1" })).toBe(1);
    for (const outcome of ["stopped", "unreachable", "auth", "rate-limit", "bad-response", "timeout", "refused"]) {
      expect(sampleValue(samples, "agentkit_model_requests_total", { outcome })).toBe(0);
    }
    expect(sampleValue(samples, "agentkit_model_requests_total", { outcome: "ok" })).toBe(1);
    expect(sampleValue(samples, "agentkit_model_requests_total", { outcome: "server" })).toBe(1);
    expect(sampleValue(samples, "agentkit_model_tokens_total", { type: "in" })).toBe(900);
    expect(sampleValue(samples, "agentkit_model_tokens_total", { type: "out" })).toBe(40);
    expect(sampleValue(samples, "agentkit_model_tokens_total", { type: "cached" })).toBe(512);
    expect(sampleValue(samples, "agentkit_memory_writes_total", { result: "saved" })).toBe(1);
    expect(sampleValue(samples, "agentkit_memory_writes_total", { result: "over-cap" })).toBe(1);
    for (const result of ["unchanged", "pending", "unsafe", "secret", "other"]) {
      expect(sampleValue(samples, "agentkit_memory_writes_total", { result })).toBe(0);
    }
    expect(sampleValue(samples, "agentkit_discord_rest_429_total", { scope: "user" })).toBe(0);
    expect(sampleValue(samples, "agentkit_discord_rate_limit_waits_total", { global: "false" })).toBe(0);
  });

  it("has the process metrics, event-loop lag included", async () => {
    const samples = await scrape(createMetrics());
    for (const name of [
      "nodejs_eventloop_lag_seconds",
      "nodejs_eventloop_lag_p99_seconds",
      "process_cpu_seconds_total",
      "process_resident_memory_bytes",
      "nodejs_heap_size_used_bytes",
    ]) {
      expect(
        samples.some((s) => s.name === name),
        name,
      ).toBe(true);
    }
  });

  it("reads sessions by status (pending summaries among them) from the store when scraped", async () => {
    const metrics = createMetrics();
    let asked = 0;
    metrics.countSessions({ countByStatus: async () => (asked++, counts) });
    expect(asked).toBe(0);
    const samples = await scrape(metrics);
    expect(asked).toBe(1);
    for (const [status, n] of Object.entries(counts)) expect(sampleValue(samples, "agentkit_sessions", { status })).toBe(n);
    expect(sampleValue(samples, "agentkit_session_store_up")).toBe(1);
  });

  it("shows the store as down, with no stale session counts, when it fails or does not answer in time", async () => {
    const metrics = createMetrics({ storeTimeoutMs: 50 });
    let answer: () => Promise<Record<SessionStatus, number>> = async () => counts;
    metrics.countSessions({ countByStatus: () => answer() });
    expect(sampleValue(await scrape(metrics), "agentkit_sessions", { status: "open" })).toBe(3);

    answer = () => Promise.reject(new Error("connection refused"));
    let samples = await scrape(metrics);
    expect(sampleValue(samples, "agentkit_session_store_up")).toBe(0);
    expect(samples.filter((s) => s.name === "agentkit_sessions")).toEqual([]);

    answer = () => new Promise(() => {});
    samples = await scrape(metrics);
    expect(sampleValue(samples, "agentkit_session_store_up")).toBe(0);
  });

  it("labels every series with the shard when it has one", async () => {
    const metrics = createMetrics({ shard: 2 });
    metrics.telemetry.turn("ok", 1, 1);
    const samples = await scrape(metrics);
    expect(samples.length).toBeGreaterThan(50);
    expect(samples.filter((s) => s.labels.shard !== "2")).toEqual([]);
    expect(sampleValue(samples, "agentkit_turns_total", { outcome: "ok", shard: "2" })).toBe(1);
  });

  it("keeps to its own registry, so several can live in one process", async () => {
    const first = createMetrics();
    const second = createMetrics();
    first.telemetry.modelRequest("ok");
    expect(sampleValue(await scrape(second), "agentkit_model_requests_total", { outcome: "ok" })).toBe(0);
    expect(register.getSingleMetric("agentkit_turns_total")).toBeUndefined();
  });
});
