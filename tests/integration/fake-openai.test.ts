import OpenAI, { type ClientOptions } from "openai";
import type { ChatCompletionChunk, ChatCompletionTool } from "openai/resources/chat/completions";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startFakeOpenAI, type FakeOpenAI } from "../fakes/fake-openai.js";

const USER_HELLO = [{ role: "user" as const, content: "hello" }];

const LOOKUP_TOOL: ChatCompletionTool = {
  type: "function",
  function: {
    name: "lookup_memory",
    description: "Find what we remember about a person.",
    parameters: { type: "object", properties: { person: { type: "string" } }, required: ["person"] },
  },
};

let fake: FakeOpenAI;

beforeEach(async () => {
  fake = await startFakeOpenAI();
});

afterEach(async () => {
  await fake.close();
});

// logLevel "off" keeps the SDK from printing the malformed chunks it rejects.
function clientFor(options: ClientOptions = {}): OpenAI {
  return new OpenAI({ apiKey: "test-key", baseURL: fake.baseURL, maxRetries: 0, logLevel: "off", ...options });
}

async function streamChunks(client: OpenAI, options: { include_usage?: boolean } = {}): Promise<ChatCompletionChunk[]> {
  const stream = await client.chat.completions.create({
    model: "fake-model",
    messages: USER_HELLO,
    stream: true,
    ...(options.include_usage ? { stream_options: { include_usage: true } } : {}),
  });
  const chunks: ChatCompletionChunk[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
}

const contentOf = (chunks: ChatCompletionChunk[]): string[] => chunks.map((chunk) => chunk.choices[0]?.delta.content ?? "").filter((piece) => piece !== "");

describe("streamed replies", () => {
  it("streams scripted text in several chunks that join back to the text", async () => {
    const text = "Nice to see you again, Ada — how did the move go? 🚚";
    fake.enqueue({ text, chunkSize: 5 });

    const chunks = await streamChunks(clientFor());

    expect(contentOf(chunks).join("")).toBe(text);
    expect(contentOf(chunks).length).toBeGreaterThan(5);
    expect(chunks[0]?.choices[0]?.delta.role).toBe("assistant");
    expect(chunks.at(-1)?.choices[0]?.finish_reason).toBe("stop");
    expect(chunks.every((chunk) => chunk.object === "chat.completion.chunk" && chunk.id === chunks[0]?.id)).toBe(true);
  });

  it("streams two tool calls whose arguments the SDK stream helper reassembles", async () => {
    fake.enqueue({
      toolCalls: [
        { name: "lookup_memory", arguments: { person: "Ada Lovelace" }, id: "call_ada" },
        { name: "lookup_memory", arguments: '{"person":"Charles Babbage"}' },
      ],
      chunkSize: 6,
    });
    const argumentPieces: string[] = [];

    const stream = clientFor().chat.completions.stream({ model: "fake-model", messages: USER_HELLO, tools: [LOOKUP_TOOL] });
    stream.on("chunk", (chunk) => {
      const piece = chunk.choices[0]?.delta.tool_calls?.[0]?.function?.arguments;
      if (piece) argumentPieces.push(piece);
    });
    const completion = await stream.finalChatCompletion();

    const choice = completion.choices[0];
    expect(choice?.finish_reason).toBe("tool_calls");
    expect(choice?.message.tool_calls).toMatchObject([
      { id: "call_ada", type: "function", function: { name: "lookup_memory", arguments: '{"person":"Ada Lovelace"}' } },
      { id: "call_fake_1_1", type: "function", function: { name: "lookup_memory", arguments: '{"person":"Charles Babbage"}' } },
    ]);
    expect(argumentPieces.length).toBeGreaterThan(4);
  });

  it("sends a usage chunk with cached tokens only when the request asks for usage", async () => {
    const usage = { prompt_tokens: 120, completion_tokens: 7, cached_tokens: 96 };
    fake.enqueue({ text: "cached", usage }, { text: "cached", usage });

    const withUsage = await streamChunks(clientFor(), { include_usage: true });
    const withoutUsage = await streamChunks(clientFor());

    const last = withUsage.at(-1);
    expect(last?.choices).toEqual([]);
    expect(last?.usage).toEqual({
      prompt_tokens: 120,
      completion_tokens: 7,
      total_tokens: 127,
      prompt_tokens_details: { cached_tokens: 96 },
    });
    expect(withoutUsage.some((chunk) => chunk.usage)).toBe(false);
  });

  it("holds back the first chunk by firstTokenDelayMs and paces the rest by tokensPerSecond", async () => {
    fake.enqueue({ text: "abcdefghij", chunkSize: 2, firstTokenDelayMs: 80, tokensPerSecond: 200 });
    const startedAt = Date.now();

    const chunks = await streamChunks(clientFor());

    // Five content chunks and a finish chunk: 80 ms, then five 5 ms gaps.
    expect(chunks).toHaveLength(6);
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(100);
  });
});

describe("non-streaming replies", () => {
  it("returns a whole chat.completion with content, tool calls and usage", async () => {
    fake.enqueue({ text: "Let me check.", toolCalls: [{ name: "lookup_memory", arguments: { person: "Ada" } }] });

    const completion = await clientFor().chat.completions.create({ model: "fake-model", messages: USER_HELLO });

    expect(completion.object).toBe("chat.completion");
    expect(completion.choices[0]?.message).toEqual({
      role: "assistant",
      content: "Let me check.",
      refusal: null,
      tool_calls: [{ id: "call_fake_1_0", type: "function", function: { name: "lookup_memory", arguments: '{"person":"Ada"}' } }],
    });
    expect(completion.choices[0]?.finish_reason).toBe("tool_calls");
    expect(completion.usage?.total_tokens).toBeGreaterThan(0);
  });

  it("answers with the fallback when the script is empty", async () => {
    fake.setFallback({ text: "fallback reply" });

    const completion = await clientFor().chat.completions.create({ model: "fake-model", messages: USER_HELLO });

    expect(completion.choices[0]?.message.content).toBe("fallback reply");
  });
});

describe("errors and broken connections", () => {
  it("surfaces a scripted 500 as an OpenAI.APIError with status 500", async () => {
    fake.enqueue({ error: { status: 500 } });

    const failure = clientFor().chat.completions.create({ model: "fake-model", messages: USER_HELLO });

    await expect(failure).rejects.toBeInstanceOf(OpenAI.APIError);
    await expect(failure).rejects.toMatchObject({ status: 500, type: "server_error" });
    expect(fake.requests).toHaveLength(1);
  });

  it("lets the SDK retry a 429 with retry-after 0 and then succeed", async () => {
    fake.enqueue({ error: { status: 429, headers: { "retry-after": "0" } } }, { text: "second time lucky" });

    const completion = await clientFor({ maxRetries: 2 }).chat.completions.create({
      model: "fake-model",
      messages: USER_HELLO,
    });

    expect(completion.choices[0]?.message.content).toBe("second time lucky");
    expect(fake.requests).toHaveLength(2);
    expect(fake.requests[1]?.headers["x-stainless-retry-count"]).toBe("1");
  });

  it("makes SDK stream iteration throw on a malformed chunk", async () => {
    fake.enqueue({ text: "this will break halfway", malformed: true });
    const received: ChatCompletionChunk[] = [];

    const stream = await clientFor().chat.completions.create({ model: "fake-model", messages: USER_HELLO, stream: true });
    const iteration = (async () => {
      for await (const chunk of stream) received.push(chunk);
    })();

    await expect(iteration).rejects.toThrow(SyntaxError);
    expect(received).toHaveLength(2);
  });

  it("fails with a connection error when the connection is dropped", async () => {
    fake.enqueue({ dropConnection: true });

    const failure = clientFor().chat.completions.create({ model: "fake-model", messages: USER_HELLO });

    await expect(failure).rejects.toBeInstanceOf(OpenAI.APIConnectionError);
  });

  it("answers unknown routes with a 404 in OpenAI's error shape", async () => {
    const response = await fetch(`${fake.baseURL}/audio/speech`, { method: "POST", body: "{}" });

    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: { type: "invalid_request_error", code: "not_found" } });
  });

  it("lists one model for clients that probe /v1/models", async () => {
    const models = await clientFor().models.list();

    expect(models.data.map((model) => model.id)).toEqual(["fake-model"]);
  });
});

describe("stalled replies", () => {
  it("times out through the SDK timeout option when the stall comes before any chunk", async () => {
    fake.enqueue({ text: "never sent", stallAfterChunks: 0 });

    const failure = clientFor({ timeout: 150 }).chat.completions.create({
      model: "fake-model",
      messages: USER_HELLO,
      stream: true,
    });

    await expect(failure).rejects.toBeInstanceOf(OpenAI.APIConnectionTimeoutError);
  });

  // The SDK timeout stops at the response headers, so a mid-stream stall needs an abort signal,
  // and the SDK then ends the iteration quietly: only a missing finish_reason tells it apart.
  it("ends SDK iteration without an error or finish_reason when a mid-stream stall is aborted", async () => {
    fake.enqueue({ text: "partial answer that never finishes", chunkSize: 4, stallAfterChunks: 2 });

    const stream = await clientFor({ timeout: 100 }).chat.completions.create(
      { model: "fake-model", messages: USER_HELLO, stream: true },
      { signal: AbortSignal.timeout(200) },
    );
    const chunks: ChatCompletionChunk[] = [];
    for await (const chunk of stream) chunks.push(chunk);

    expect(contentOf(chunks).join("")).toBe("partial ");
    expect(chunks.some((chunk) => chunk.choices[0]?.finish_reason)).toBe(false);
  });

  it("closes promptly while a stream is stalled, failing the open iteration", async () => {
    fake.enqueue({ text: "stuck", stallAfterChunks: 1 });
    const stream = await clientFor().chat.completions.create({ model: "fake-model", messages: USER_HELLO, stream: true });
    const iteration = (async () => {
      for await (const chunk of stream) void chunk;
    })();

    const closingAt = Date.now();
    await fake.close();

    expect(Date.now() - closingAt).toBeLessThan(200);
    await expect(iteration).rejects.toThrow();
  });

  it("closes promptly while a delayed reply is still waiting for its first token", async () => {
    fake.enqueue({ text: "too late", firstTokenDelayMs: 60_000 });
    const failure = clientFor().chat.completions.create({ model: "fake-model", messages: USER_HELLO });
    await fake.waitForRequests(1);

    const closingAt = Date.now();
    await fake.close();

    expect(Date.now() - closingAt).toBeLessThan(200);
    await expect(failure).rejects.toBeInstanceOf(OpenAI.APIConnectionError);
  });
});

describe("recorded requests", () => {
  it("records the messages, tools and headers the client sent", async () => {
    const messages = [
      { role: "system" as const, content: "You remember people." },
      { role: "user" as const, content: "What do you know about Ada?" },
    ];

    await clientFor().chat.completions.create({ model: "fake-model", messages, tools: [LOOKUP_TOOL], stream: true });
    await fake.waitForRequests(1);

    const [request] = fake.requests;
    expect(request?.body).toMatchObject({ model: "fake-model", messages, tools: [LOOKUP_TOOL], stream: true });
    expect(request?.headers.authorization).toBe("Bearer test-key");
    expect(request?.receivedAt).toBeLessThanOrEqual(Date.now());
  });

  it("hands the recorded request to a reply function", async () => {
    fake.enqueue((request) => {
      const last = request.body.messages.at(-1);
      return { text: `you said: ${typeof last?.content === "string" ? last.content : "?"}` };
    });

    const completion = await clientFor().chat.completions.create({ model: "fake-model", messages: USER_HELLO });

    expect(completion.choices[0]?.message.content).toBe("you said: hello");
  });

  it("rejects waitForRequests with a readable message when too few requests arrive", async () => {
    await expect(fake.waitForRequests(1, 20)).rejects.toThrow(/Expected 1 requests .* within 20 ms, got 0/);
  });
});
