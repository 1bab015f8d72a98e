import { afterEach, describe, expect, it } from "vitest";
import { ModelClient } from "../../../src/model/model-client.js";
import { ModelError } from "../../../src/model/model-error.js";
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
    [401, "auth"],
    [429, "rate-limit"],
    [503, "server"],
    [404, "refused"],
    [400, "refused"],
  ] as const)("turns HTTP %i into a %s ModelError that keeps the status and the base URL", async (status, kind) => {
    const model = await client();
    fake.enqueue({ error: { status } });
    const error = await failure(model.stream({ messages: [{ role: "user", content: "hi" }] }));
    expect(error).toBeInstanceOf(ModelError);
    expect(error?.kind).toBe(kind);
    expect(error?.details).toMatchObject({ baseURL: fake.baseURL, model: "m", status, reason: `Scripted ${status} error` });
  });

  it("tells a base URL without /v1 (a 404 for /chat/completions) from a 404 behind /v1 (an unknown model)", async () => {
    fake = await startFakeOpenAI();
    const root = fake.baseURL.replace(/\/v1$/, "");
    for (const baseURL of [root, `${root}/`, `${root}/api`]) {
      const model = new ModelClient({ baseURL, apiKey: "k", model: "m", maxRetries: 0 });
      const streamed = await failure(model.stream({ messages: [{ role: "user", content: "hi" }] }));
      expect(streamed?.kind, baseURL).toBe("wrong-base-url");
      expect(streamed?.details.status).toBe(404);
      expect((await failure(model.complete([{ role: "user", content: "hi" }])))?.kind).toBe("wrong-base-url");
    }
    // Servers whose OpenAI path is versioned otherwise (v1beta) are not told to add /v1.
    fake.enqueue({ error: { status: 404 } });
    const versioned = new ModelClient({ baseURL: fake.baseURL.replace(/\/v1$/, "/v1beta/openai"), apiKey: "k", model: "m", maxRetries: 0 });
    expect((await failure(versioned.stream({ messages: [{ role: "user", content: "hi" }] })))?.kind).toBe("refused");
    // The fake's own 404 behind /v1 is a model it does not serve.
    fake.enqueue({ error: { status: 404 } });
    const right = new ModelClient({ baseURL: fake.baseURL, apiKey: "k", model: "m", maxRetries: 0 });
    expect((await failure(right.stream({ messages: [{ role: "user", content: "hi" }] })))?.kind).toBe("refused");
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
