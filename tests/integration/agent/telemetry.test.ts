import { describe, expect, it } from "vitest";
import type { Telemetry } from "../../../src/lib/telemetry.js";
import { aliceInThread, setupEngine } from "../../helpers/engine.js";

/** A Telemetry that writes down every call, in order. */
function recording() {
  const calls: { turns: [string, number, number][]; requests: string[]; tokens: number[][]; writes: string[] } = {
    turns: [],
    requests: [],
    tokens: [],
    writes: [],
  };
  const telemetry: Telemetry = {
    turn: (outcome, ownMs, modelMs) => calls.turns.push([outcome, ownMs, modelMs]),
    modelRequest: (outcome) => calls.requests.push(outcome),
    tokens: (u) => calls.tokens.push([u.promptTokens, u.completionTokens, u.cachedTokens]),
    memoryWrite: (result) => calls.writes.push(result),
  };
  return { calls, telemetry };
}

describe("what the engine tells telemetry", () => {
  it("splits a turn's time into the model's and AgentKit's own, and counts each request, its tokens and the memory writes", async () => {
    const { calls, telemetry } = recording();
    const { engine, fake } = await setupEngine({ telemetry });
    const session = await engine.open(aliceInThread);
    fake.enqueue(
      {
        toolCalls: [{ name: "memory_add", arguments: { file: "user", section: "Likes", content: "- oolong" } }],
        firstTokenDelayMs: 200,
        usage: { prompt_tokens: 50, completion_tokens: 5, cached_tokens: 20 },
      },
      { text: "Noted.", firstTokenDelayMs: 100, usage: { prompt_tokens: 60, completion_tokens: 2 } },
    );
    await engine.turn(session.id, "I like oolong");
    expect(calls.requests).toEqual(["ok", "ok"]);
    expect(calls.tokens).toEqual([
      [50, 5, 20],
      [60, 2, 0],
    ]);
    expect(calls.writes).toEqual(["saved"]);
    expect(calls.turns).toHaveLength(1);
    const [outcome, ownMs, modelMs] = calls.turns[0]!;
    expect(outcome).toBe("ok");
    expect(modelMs).toBeGreaterThanOrEqual(295);
    expect(ownMs).toBeGreaterThan(0);
    expect(ownMs).toBeLessThan(150);

    // The closing summary is a model request too.
    fake.enqueue({ text: "Alice likes oolong.", usage: { prompt_tokens: 80, completion_tokens: 4 } });
    await engine.close(session.id, "test");
    expect(calls.requests).toEqual(["ok", "ok", "ok"]);
    expect(calls.tokens.at(-1)).toEqual([80, 4, 0]);
    expect(calls.turns).toHaveLength(1);
  });

  it("counts a stopped turn as stopped and a failed one as an error, with the model request's outcome", async () => {
    const { calls, telemetry } = recording();
    const { engine, fake } = await setupEngine({ telemetry });
    const session = await engine.open(aliceInThread);
    const stop = new AbortController();
    fake.enqueue({ text: "a long answer that never ends", chunkSize: 4, stallAfterChunks: 1 });
    await engine.turn(session.id, "tell me", { signal: stop.signal, onDelta: () => stop.abort() });
    fake.enqueue({ error: { status: 401 } });
    await expect(engine.turn(session.id, "again")).rejects.toMatchObject({ kind: "auth" });
    expect(calls.requests).toEqual(["stopped", "auth"]);
    expect(calls.turns.map(([outcome]) => outcome)).toEqual(["stopped", "error"]);
    expect(calls.tokens).toEqual([]);
  });
});
