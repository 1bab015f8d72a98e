import { afterEach, describe, expect, it } from "vitest";
import { ModelClient } from "../../../src/model/model-client.js";
import { ModelError } from "../../../src/model/model-error.js";
import { startFakeOpenAI, type FakeOpenAI } from "../../fakes/fake-openai.js";
import { llamaCppBefore12379, ollama046, vllm, vllmWithoutAutoToolChoice, type ServerMode } from "../../fakes/model-servers.js";
import type { ServerNotice } from "../../../src/model/model-client.js";
import type { ChatCompletionFunctionTool } from "openai/resources/chat/completions";
import { errorObjectOf } from "../../../src/model/error-bodies.js";
import { replayableArguments } from "../../../src/engine/chat-context.js";
import sharp from "sharp";
import { gif } from "../../helpers/image-fixtures.js";

let fake: FakeOpenAI;
afterEach(() => fake?.close());

async function client(options: { maxRetries?: number } = {}) {
  fake = await startFakeOpenAI();
  return new ModelClient({ baseURL: fake.baseURL, apiKey: "k", model: "m", maxRetries: options.maxRetries ?? 0, streamIdleMs: 500 });
}

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (e: unknown) => e as ModelError,
  );

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

  it("sends each request as JSON, the prompt and the tools as sent before, whether streamed or not", async () => {
    const model = await client();
    const tools: ChatCompletionFunctionTool[] = [
      { type: "function", function: { name: "memory_add", description: "下周: next week", parameters: { type: "object" } } },
    ];
    const prompt = { role: "system" as const, content: "You remember people. 上个月 means last month." };
    await model.stream({ messages: [prompt, { role: "user", content: "hi 👋" }], tools });
    await model.stream({
      messages: [prompt, { role: "user", content: "hi 👋" }, { role: "assistant", content: "ok" }, { role: "user", content: "again" }],
      tools,
    });
    await model.complete([prompt, { role: "user", content: "sum up" }]);
    expect(fake.requests).toHaveLength(3);
    for (const request of fake.requests) expect(request.headers["content-type"]).toBe("application/json");
    expect(fake.requests[1]!.body).toEqual({
      model: "m",
      messages: [prompt, { role: "user", content: "hi 👋" }, { role: "assistant", content: "ok" }, { role: "user", content: "again" }],
      tools,
      parallel_tool_calls: true,
      stream: true,
      stream_options: { include_usage: true },
    });
    expect(fake.requests[2]!.body).toMatchObject({ messages: [prompt, { role: "user", content: "sum up" }], stream: true });
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
    expect(await model.embedder!.embed(["a", "abc"])).toEqual([
      [1, 1],
      [3, 1],
    ]);
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

  const TOOL: ChatCompletionFunctionTool = { type: "function", function: { name: "memory_read", parameters: { type: "object", properties: {} } } };
  const serve = async (server: ServerMode, options: { maxRetries?: number; timeoutMs?: number; longTimeoutMs?: number } = {}) => {
    fake = await startFakeOpenAI({ server });
    const notices: ServerNotice[] = [];
    // A model name of its own: what the client learns is kept per server and model for the process.
    const model = new ModelClient({
      baseURL: fake.baseURL,
      apiKey: "k",
      model: `m-${Math.random()}`,
      maxRetries: options.maxRetries ?? 0,
      streamIdleMs: 500,
      timeoutMs: options.timeoutMs ?? 5_000,
      longTimeoutMs: options.longTimeoutMs ?? 5_000,
      onNotice: (n) => void notices.push(n),
    });
    return { model, notices };
  };

  it("never retries a refusal that cannot change, even a 500, and sends the round without streaming once, then every time", async () => {
    const { model, notices } = await serve(llamaCppBefore12379(), { maxRetries: 2 });
    fake.setFallback({ text: "", toolCalls: [{ name: "memory_read", arguments: { file: "user" } }] });
    const reply = await model.stream({ messages: [{ role: "user", content: "hi" }], tools: [TOOL] });
    expect(reply.toolCalls.map((c) => c.name)).toEqual(["memory_read"]);
    // One refused request (not three: the SDK would retry a 500 twice), a probe with nothing of anyone's that
    // is refused the same way, then the same round without streaming.
    expect(fake.requests.map((r) => [r.body.stream, r.refused?.status])).toEqual([
      [true, 500],
      [true, 500],
      [false, undefined],
    ]);
    expect(fake.requests[1]!.body.messages).toEqual([
      { role: "system", content: "Answer with one word." },
      { role: "user", content: "ping" },
    ]);
    expect(fake.requests[1]!.body.max_tokens).toBe(1);
    expect(notices).toMatchObject([
      { action: "without-streaming", error: { details: { refusal: "tools-with-stream", reason: "Cannot use tools with stream", status: 500 } } },
    ]);
    await model.stream({ messages: [{ role: "user", content: "again" }], tools: [TOOL] });
    expect(fake.requests.slice(3).map((r) => r.body.stream)).toEqual([false]);
    expect(notices).toHaveLength(1);
  });

  it("keeps the server's reason whatever shape its error body has", async () => {
    const { model, notices } = await serve(vllmWithoutAutoToolChoice());
    const reply = await model.stream({ messages: [{ role: "user", content: "hi" }], tools: [TOOL] });
    expect(reply.toolsLeftOut).toBe(true);
    // vLLM up to 0.10.0 answers {"object":"error","message":…}: the SDK alone would say "400 status code (no body)".
    expect(notices[0]!.error.details).toMatchObject({
      refusal: "tools-need-parser",
      reason: '"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set',
    });
    expect(errorObjectOf(JSON.stringify({ error: 'model "llama3" not found, try pulling it first' })).message).toBe(
      'model "llama3" not found, try pulling it first',
    );
    expect(errorObjectOf('{"detail":"Not Found"}').message).toBe("Not Found");
    expect(errorObjectOf("upstream timed out").message).toBe("upstream timed out");
    expect(errorObjectOf('{"error":{"message":"x","type":"t","code":400,"n_ctx":4096}}')).toEqual({ message: "x", type: "t", code: 400, n_ctx: 4096 });
  });

  it("leaves out from the log a long quoted run a server echoes from the request", async () => {
    fake = await startFakeOpenAI();
    const model = new ModelClient({ baseURL: fake.baseURL, apiKey: "k", model: "m", maxRetries: 0 });
    fake.enqueue({ error: { status: 400, body: { error: { message: `invalid tool call arguments: "${"my secret diary entry ".repeat(10)}" at offset 3` } } } });
    const error = await failure(model.stream({ messages: [{ role: "user", content: "hi" }] }));
    expect(error?.details.reason).toBe('invalid tool call arguments: "…" at offset 3');
  });

  it("sends WebP as PNG to a server that refused it, and leaves images out for a model that cannot see", async () => {
    const webp = await sharp({ create: { width: 5, height: 4, channels: 3, background: "#ff0000" } })
      .webp()
      .toBuffer();
    const image = {
      role: "user" as const,
      content: [
        { type: "text" as const, text: "look" },
        { type: "image_url" as const, image_url: { url: `data:image/webp;base64,${webp.toString("base64")}` } },
      ],
    };
    const old = await serve(ollama046());
    const converted = await old.model.stream({ messages: [image] });
    expect(converted.imagesLeftOut).toBeUndefined();
    expect(fake.requests.map((r) => r.refused?.status)).toEqual([400, undefined]);
    expect(JSON.stringify(fake.requests[1]!.body.messages)).toContain("data:image/png;base64,");
    expect(old.notices.map((n) => n.action)).toEqual(["images-as-png"]);
    await fake.close();
    const textOnly = await serve(vllm());
    const answered = await textOnly.model.stream({ messages: [image] });
    expect(answered.imagesLeftOut).toBe(true);
    expect(JSON.stringify(fake.requests.at(-1)!.body.messages)).not.toContain("image_url");
    expect(textOnly.notices.map((n) => n.action)).toEqual(["without-images"]);
  });

  it("replays malformed tool-call arguments as {} so a server that parses them again does not refuse the conversation", () => {
    expect(replayableArguments('{"file": "user"')).toBe("{}");
    expect(replayableArguments("[1,2]")).toBe("{}");
    expect(replayableArguments("")).toBe("{}");
    expect(replayableArguments('{"file":"user"}')).toBe('{"file":"user"}');
    // What JavaScript reads but Go, nlohmann or Python refuse is written again from its value.
    expect(replayableArguments('{"query":"tea","limit":1e400}')).toBe('{"query":"tea","limit":null}');
    expect(replayableArguments('{"text":"broken \\ud83d here"}')).toBe('{"text":"broken \ufffd here"}');
    expect(replayableArguments(`{"a":${"[".repeat(40)}${"]".repeat(40)}}`)).toBe("{}");
    expect(replayableArguments(JSON.stringify({ content: "x".repeat(40_000) }))).toBe("{}");
  });

  it("gives a long answer its own first-token time-out, streams it, and never takes a time-out for a refusal", async () => {
    const { model } = await serve(ollama046(), { timeoutMs: 100, longTimeoutMs: 1_000 });
    // Slower than OPENAI_TIMEOUT_SECONDS, within the long one.
    fake.enqueue({ text: '{"operations":[]}', firstTokenDelayMs: 300 });
    const answer = await model.complete([{ role: "user", content: "tidy" }], { schema: { name: "plan", schema: { type: "object" } } });
    expect(answer).toMatchObject({ content: '{"operations":[]}', structured: true });
    expect(fake.requests.at(-1)!.body.stream).toBe(true);
    // Past the long time-out: a time-out, and no second request without the schema.
    fake.enqueue({ text: "{}", stallAfterChunks: 0 });
    const before = fake.requests.length;
    const error = await failure(model.complete([{ role: "user", content: "tidy" }], { schema: { name: "plan", schema: { type: "object" } } }));
    expect(error?.kind).toBe("timeout");
    expect(fake.requests.length).toBe(before + 1);
  });

  it("leaves out a parameter the server refuses (OpenAI's reasoning models and parallel_tool_calls), after a probe", async () => {
    const strict: ServerMode = {
      name: "no parallel_tool_calls",
      refuse: (body) =>
        body.parallel_tool_calls !== undefined
          ? {
              status: 400,
              body: {
                error: {
                  message: "Unsupported parameter: 'parallel_tool_calls' is not supported with this model.",
                  type: "invalid_request_error",
                  param: "parallel_tool_calls",
                  code: "unsupported_parameter",
                },
              },
            }
          : undefined,
    };
    const { model, notices } = await serve(strict);
    await model.stream({ messages: [{ role: "user", content: "hi" }], tools: [TOOL] });
    expect(fake.requests.map((r) => [r.body.parallel_tool_calls, r.refused?.status])).toEqual([
      [true, 400],
      [true, 400],
      [undefined, undefined],
    ]);
    expect(notices.map((n) => [n.action, n.scope, n.error.details.parameter])).toEqual([["without-parameter", "process", "parallel_tool_calls"]]);
  });

  it("asks again without the schema only when the server refuses response_format", async () => {
    // A server whose response_format takes no json_schema, whatever is asked.
    const noSchema: ServerMode = {
      name: "no json_schema",
      refuse: (body) =>
        body.response_format?.type === "json_schema"
          ? { status: 400, body: { error: { message: "response_format json_schema is not supported", type: "BadRequestError", code: 400 } } }
          : undefined,
    };
    const { model, notices } = await serve(noSchema);
    fake.setFallback({ text: "{}" });
    const answer = await model.complete([{ role: "user", content: "tidy" }], { schema: { name: "plan", schema: { type: "object" } } });
    expect(answer.structured).toBe(false);
    // Refused, the probe (a schema, "ping") refused the same way, then asked without the schema; the next asks without it at once.
    expect(fake.requests.map((r) => [Boolean(r.body.response_format), r.refused?.status])).toEqual([
      [true, 400],
      [true, 400],
      [false, undefined],
    ]);
    expect(notices.map((n) => [n.action, n.scope])).toEqual([["without-schema", "process"]]);
    await model.complete([{ role: "user", content: "tidy" }], { schema: { name: "plan", schema: { type: "object" } } });
    expect(fake.requests.slice(3).map((r) => Boolean(r.body.response_format))).toEqual([false]);
  });

  it("leaves out an image that cannot be converted (a GIF cut short, one of 25 megapixels in a few kilobytes), and answers the words", async () => {
    fake = await startFakeOpenAI();
    const model = new ModelClient({ baseURL: fake.baseURL, apiKey: "k", model: "m", maxRetries: 0 });
    const huge = await sharp({ create: { width: 5_000, height: 5_000, channels: 3, background: "#ffffff" } })
      .gif()
      .toBuffer();
    expect(huge.length).toBeLessThan(1_000_000);
    for (const bytes of [gif(4, 3).subarray(0, 16), huge]) {
      const before = fake.requests.length;
      const started = performance.now();
      const reply = await model.stream({
        messages: [
          {
            role: "user",
            content: [
              { type: "text", text: "look" },
              { type: "image_url", image_url: { url: `data:image/gif;base64,${bytes.toString("base64")}` } },
            ],
          },
        ],
      });
      expect(performance.now() - started).toBeLessThan(2_000);
      expect(reply.imagesLeftOut).toBe(true);
      expect(fake.requests.length).toBe(before + 1);
      expect(JSON.stringify(fake.requests.at(-1)!.body.messages)).not.toContain("image_url");
    }
  });

  it("does not learn from a refusal that was about one request: someone's words cannot take tools or images from everyone", async () => {
    // A server whose error depends on what was asked (an echo, a bad image): the probe, with nothing of anyone's, is taken.
    const echoing: ServerMode = {
      name: "echoing",
      refuse(body) {
        const words = JSON.stringify(body.messages);
        if (words.includes("laptop") && body.tools) return { status: 400, body: { error: { message: "someone/laptop does not support tools" } } };
        if (words.includes("image_url") && !words.includes("iVBORw0KGgoAAAANSUhEUgAAAAEAAAAB"))
          return { status: 400, body: { error: { message: "image input is not supported - hint: you may need to provide the mmproj" } } };
        return undefined;
      },
    };
    const { model, notices } = await serve(echoing);
    const mine = await model.stream({ messages: [{ role: "user", content: "my laptop" }], tools: [TOOL] });
    expect(mine.toolsLeftOut).toBe(true);
    const image = {
      role: "user" as const,
      content: [
        { type: "text" as const, text: "look" },
        { type: "image_url" as const, image_url: { url: `data:image/gif;base64,${gif(4, 3).toString("base64")}` } },
      ],
    };
    expect((await model.stream({ messages: [image] })).imagesLeftOut).toBe(true);
    // The next person's request has its tools and its image.
    const theirs = await model.stream({ messages: [{ role: "user", content: "hello" }], tools: [TOOL] });
    expect(theirs.toolsLeftOut).toBeUndefined();
    expect(fake.requests.at(-1)!.body.tools).toHaveLength(1);
    // Each refused request is in the operator's log, as that request's alone.
    expect(notices.map((n) => [n.action, n.scope])).toEqual([
      ["without-tools", "request"],
      ["without-images", "request"],
    ]);
  });

  it("sends an image a server could not read as PNG for that request, then without it, and keeps images for the next", async () => {
    const damaged = Buffer.concat([
      (
        await sharp({ create: { width: 8, height: 8, channels: 3, background: "#00ff00" } })
          .png()
          .toBuffer()
      ).subarray(0, 40),
      Buffer.alloc(200, 7),
    ]);
    const good = await sharp({ create: { width: 8, height: 8, channels: 3, background: "#0000ff" } })
      .jpeg()
      .toBuffer();
    const reading: ServerMode = {
      name: "stb_image",
      refuse: (body) =>
        JSON.stringify(body.messages).includes(damaged.toString("base64").slice(0, 60))
          ? { status: 400, body: { error: { code: 400, message: "Failed to load image or audio file", type: "invalid_request_error" } } }
          : undefined,
    };
    const { model, notices } = await serve(reading);
    const ask = (bytes: Buffer, type: string) =>
      model.stream({
        messages: [
          {
            role: "user",
            content: [
              { type: "text", text: "look" },
              { type: "image_url", image_url: { url: `data:${type};base64,${bytes.toString("base64")}` } },
            ],
          },
        ],
      });
    expect((await ask(damaged, "image/png")).imagesLeftOut).toBe(true);
    expect(fake.requests.map((r) => r.refused?.status)).toEqual([400, undefined]);
    const next = await ask(good, "image/jpeg");
    expect(next.imagesLeftOut).toBeUndefined();
    expect(JSON.stringify(fake.requests.at(-1)!.body.messages)).toContain("data:image/jpeg;base64,");
    expect(notices.map((n) => [n.action, n.scope])).toEqual([["without-images", "request"]]);
  });

  it("never sends text twice: a refusal after the person saw part of the answer ends the round", async () => {
    fake = await startFakeOpenAI();
    const model = new ModelClient({ baseURL: fake.baseURL, apiKey: "k", model: `m-${Math.random()}`, maxRetries: 0, streamIdleMs: 500 });
    fake.enqueue({ text: "Half an answer", chunkSize: 4, errorAfterChunks: { chunks: 2, message: "Cannot use tools with stream" } });
    const seen: string[] = [];
    const error = await failure(model.stream({ messages: [{ role: "user", content: "hi" }], tools: [TOOL], onDelta: (t) => void seen.push(t) }));
    expect(seen.join("")).toBe("Half an ");
    expect(error?.details.refusal).toBe("tools-with-stream");
    expect(fake.requests).toHaveLength(1);
  });
});
