import { afterEach, describe, expect, it } from "vitest";
import { ModelClient, ModelError } from "../../../src/agent/model-client.js";
import { startFakeOpenAI, type FakeOpenAI } from "../../fakes/fake-openai.js";

let fake: FakeOpenAI;
afterEach(() => fake?.close());

async function client(options: { maxRetries?: number } = {}) {
  fake = await startFakeOpenAI();
  return new ModelClient({ baseURL: fake.baseURL, apiKey: "k", model: "m", maxRetries: options.maxRetries ?? 0, streamIdleMs: 500 });
}

const failure = (promise: Promise<unknown>) => promise.then(() => undefined, (e: unknown) => e as ModelError);

describe("ModelClient", () => {
  it("assembles several tool calls whose arguments arrive split across chunks", async () => {
    const model = await client();
    fake.enqueue({
      text: "Saving.",
      toolCalls: [
        { name: "memory_add", arguments: { file: "user", section: "A", content: "x".repeat(40) } },
        { name: "memory_read", arguments: { file: "memory" } },
      ],
      chunkSize: 3,
    });
    const reply = await model.stream({ messages: [{ role: "user", content: "hi" }] });
    expect(reply.content).toBe("Saving.");
    expect(reply.toolCalls.map((c) => [c.name, JSON.parse(c.arguments)])).toEqual([
      ["memory_add", { file: "user", section: "A", content: "x".repeat(40) }],
      ["memory_read", { file: "memory" }],
    ]);
    expect(new Set(reply.toolCalls.map((c) => c.id)).size).toBe(2);
  });

  it.each([
    [401, "auth", /OPENAI_API_KEY/],
    [429, "rate-limit", /busy/],
    [503, "server", /HTTP 503/],
    [404, "refused", /OPENAI_MODEL/],
  ] as const)("turns HTTP %i into a %s ModelError", async (status, kind, message) => {
    const model = await client();
    fake.enqueue({ error: { status } });
    const error = await failure(model.stream({ messages: [{ role: "user", content: "hi" }] }));
    expect(error).toBeInstanceOf(ModelError);
    expect(error?.kind).toBe(kind);
    expect(error?.message).toMatch(message);
  });

  it("names OPENAI_BASE_URL when the server is unreachable", async () => {
    const model = new ModelClient({ baseURL: "http://127.0.0.1:9/v1", apiKey: "k", model: "m", maxRetries: 0 });
    const error = await failure(model.complete([{ role: "user", content: "hi" }]));
    expect(error?.kind).toBe("unreachable");
    expect(error?.message).toMatch(/http:\/\/127\.0\.0\.1:9\/v1 \(OPENAI_BASE_URL\)/);
  });

  it("uses the SDK's retries for a 429 with retry-after", async () => {
    const model = await client({ maxRetries: 2 });
    fake.enqueue({ error: { status: 429, headers: { "retry-after": "0" } } }, { text: "after retry" });
    const reply = await model.stream({ messages: [{ role: "user", content: "hi" }] });
    expect(reply.content).toBe("after retry");
    expect(fake.requests).toHaveLength(2);
  });

  it("treats a stream that ends without a finish reason as broken", async () => {
    const model = await client();
    fake.enqueue({ text: "cut off here", dropConnection: false, stallAfterChunks: 1 });
    const error = await failure(model.stream({ messages: [{ role: "user", content: "hi" }] }));
    expect(error?.kind).toBe("timeout");
  });

  it("embeds texts in order with OPENAI_EMBEDDING_MODEL, as floats, and has no embedder without it", async () => {
    fake = await startFakeOpenAI();
    fake.setEmbeddings((texts) => texts.map((t) => [t.length, 1]));
    const model = new ModelClient({ baseURL: fake.baseURL, apiKey: "k", model: "m", maxRetries: 0, embeddingModel: "embed-small" });
    expect(await model.embedder!.embed(["a", "abc"])).toEqual([[1, 1], [3, 1]]);
    expect(fake.embeddingRequests).toEqual([{ model: "embed-small", input: ["a", "abc"], encodingFormat: "float" }]);
    expect(new ModelClient({ baseURL: fake.baseURL, apiKey: "k", model: "m" }).embedder).toBeUndefined();
  });

  it("turns a failed embeddings call into a ModelError", async () => {
    fake = await startFakeOpenAI();
    fake.setEmbeddings(() => ({ error: { status: 404 } }));
    const model = new ModelClient({ baseURL: fake.baseURL, apiKey: "k", model: "m", maxRetries: 0, embeddingModel: "nope" });
    const error = await failure(model.embedder!.embed(["a"]));
    expect(error).toBeInstanceOf(ModelError);
    expect(error?.kind).toBe("refused");
  });
});
