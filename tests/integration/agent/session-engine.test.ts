import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { MAX_TOOL_ROUNDS } from "../../../src/engine/agent-loop.js";
import { ModelError } from "../../../src/model/model-error.js";
import { aliceInThread, setupEngine } from "../../helpers/engine.js";

const systemPromptOf = (body: { messages: unknown[] }) => body.messages[0] as { role: string; content: string };

describe("turns", () => {
  it("streams a text-only answer and stores the exchange", async () => {
    const { engine, fake } = await setupEngine();
    const session = await engine.open(aliceInThread);
    fake.enqueue({ text: "Hello Alice, nice to meet you!", chunkSize: 5 });
    const deltas: string[] = [];
    const result = await engine.turn(session.id, "hi", { onDelta: (d) => deltas.push(d) });
    expect(result.text).toBe("Hello Alice, nice to meet you!");
    expect(deltas.length).toBeGreaterThan(3);
    expect(deltas.join("")).toBe(result.text);
    expect(result.changes).toEqual([]);
    const stored = await engine.get(session.id);
    expect(stored?.messages).toEqual([
      { role: "user", content: "hi" },
      { role: "assistant", content: "Hello Alice, nice to meet you!" },
    ]);
    const request = fake.requests[0]!.body;
    expect(systemPromptOf(request)).toEqual({ role: "system", content: session.systemPrompt });
    expect(request.tools?.map((t) => (t.type === "function" ? t.function.name : ""))).toContain("memory_add");
  });

  it("runs memory_add, changes the file on disk and keeps the prompt of the next request unchanged", async () => {
    const { engine, fake, home } = await setupEngine();
    const session = await engine.open(aliceInThread);
    fake.enqueue(
      { toolCalls: [{ name: "memory_add", arguments: { file: "user", section: "Likes", content: "- green tea" } }] },
      { text: "Noted: you like green tea." },
    );
    const result = await engine.turn(session.id, "I love green tea");
    expect(result.text).toBe("Noted: you like green tea.");
    expect(result.changes).toEqual([{ file: "USER.md", section: "Likes" }]);
    expect(await readFile(join(home, "users/111/USER.md"), "utf8")).toBe("## Likes\n- green tea\n");
    const [first, second] = fake.requests;
    expect(systemPromptOf(second!.body)).toEqual(systemPromptOf(first!.body));
    const toolMessage = second!.body.messages.at(-1) as { role: string; content: string };
    expect(toolMessage.role).toBe("tool");
    expect(JSON.parse(toolMessage.content)).toMatchObject({ ok: true, file: "USER.md", usage: "21/1400" });
  });

  it("gives a new person the default persona in their language without writing it; the model's first change to it writes it, then the change", async () => {
    const { engine, fake, home } = await setupEngine();
    const session = await engine.open({ ...aliceInThread, locale: "zh-CN" });
    await expect(readdir(join(home, "users/111"))).rejects.toThrow(/ENOENT/);
    fake.enqueue(
      { toolCalls: [{ name: "memory_read", arguments: { file: "soul" } }] },
      { toolCalls: [{ name: "memory_add", arguments: { file: "soul", section: "说话风格", content: "多用短句。" } }] },
      { text: "好的。" },
    );
    await engine.turn(session.id, "说话短一点");
    const [first, second] = fake.requests;
    expect(systemPromptOf(first!.body).content).toContain("## 名字\nAgentKit");
    expect(JSON.parse((second!.body.messages.at(-1) as { content: string }).content)).toMatchObject({
      ok: true,
      content: expect.stringContaining("## 性格\n专业、友好、注重细节。"),
    });
    expect(await readFile(join(home, "users/111/SOUL.md"), "utf8")).toMatch(/^## 名字\nAgentKit\n[\s\S]*## 说话风格\n简洁清晰，用中文回答。\n多用短句。\n$/);
    const history = await engine.memoryOf("111").history();
    expect(history.map((e) => [e.by.kind, e.op])).toEqual([
      ["model", "add"],
      ["system", "persona"],
    ]);
  });

  it("keeps the session's language with a proposal to change the default persona", async () => {
    const { engine, fake } = await setupEngine();
    await engine.memoryOf("111").saveSettings({ askBeforeSaving: "profile" });
    const session = await engine.open({ ...aliceInThread, locale: "zh-CN" });
    fake.enqueue({ toolCalls: [{ name: "memory_add", arguments: { file: "soul", section: "说话风格", content: "多用短句。" } }] }, { text: "等你确认。" });
    await engine.turn(session.id, "说话短一点");
    const [proposal] = engine.memoryOf("111").listProposals();
    expect(proposal).toMatchObject({ file: "soul", section: "说话风格", locale: "zh-CN" });
  });

  it("executes two tool calls from one response", async () => {
    const { engine, fake, home } = await setupEngine();
    const session = await engine.open(aliceInThread);
    fake.enqueue(
      {
        toolCalls: [
          { name: "memory_add", arguments: { file: "user", section: "Name", content: "Alice" } },
          { name: "memory_add", arguments: { file: "memory", section: "Follow-ups", content: "- ask about the trip" } },
        ],
        chunkSize: 3,
      },
      { text: "Done." },
    );
    const result = await engine.turn(session.id, "remember me");
    expect(result.changes).toHaveLength(2);
    expect(await readFile(join(home, "users/111/MEMORY.md"), "utf8")).toContain("- ask about the trip");
    const toolResults = fake.requests[1]!.body.messages.filter((m) => m.role === "tool");
    expect(toolResults).toHaveLength(2);
  });

  it(`stops offering tools after ${MAX_TOOL_ROUNDS} rounds and asks for a final answer`, async () => {
    const { engine, fake } = await setupEngine();
    const session = await engine.open(aliceInThread);
    for (let i = 0; i < MAX_TOOL_ROUNDS; i++) fake.enqueue({ toolCalls: [{ name: "memory_read", arguments: { file: "user" } }] });
    fake.enqueue({ text: "Final answer." });
    const result = await engine.turn(session.id, "loop please");
    expect(result.text).toBe("Final answer.");
    expect(fake.requests).toHaveLength(MAX_TOOL_ROUNDS + 1);
    expect(fake.requests[MAX_TOOL_ROUNDS - 1]!.body.tools).toBeDefined();
    expect(fake.requests[MAX_TOOL_ROUNDS]!.body.tools).toBeUndefined();
  });

  it("sends a byte-identical system prompt on every request of a 5-turn session that edits memory", async () => {
    const { engine, fake } = await setupEngine();
    const session = await engine.open(aliceInThread);
    for (let i = 0; i < 5; i++) {
      fake.enqueue({ toolCalls: [{ name: "memory_add", arguments: { file: "memory", section: "Log", content: `- turn ${i}` } }] }, { text: `answer ${i}` });
      await engine.turn(session.id, `message ${i}`);
    }
    expect(fake.requests).toHaveLength(10);
    const prompts = new Set(fake.requests.map((r) => JSON.stringify(r.body.messages[0])));
    expect(prompts.size).toBe(1);
    expect(fake.requests.every((r) => systemPromptOf(r.body).content === session.systemPrompt)).toBe(true);
  });

  it.each([
    ["a 500", { error: { status: 500 } }, "server"],
    ["a malformed stream", { text: "partial answer that breaks", malformed: true }, "bad-response"],
    ["a dropped connection", { dropConnection: true }, "unreachable"],
  ] as const)("turns %s into a typed error, keeps the history and works on the next turn", async (_label, reply, kind) => {
    const { engine, fake } = await setupEngine();
    const session = await engine.open(aliceInThread);
    fake.enqueue({ text: "first" });
    await engine.turn(session.id, "one");
    const before = (await engine.get(session.id))?.messages;
    fake.enqueue(reply);
    const failure = await engine.turn(session.id, "two").catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ModelError);
    expect((failure as ModelError).kind).toBe(kind);
    expect((failure as ModelError).message).not.toMatch(/undefined|\[object/);
    expect((await engine.get(session.id))?.messages).toEqual(before);
    fake.enqueue({ text: "back again" });
    expect((await engine.turn(session.id, "two again")).text).toBe("back again");
  });

  it("fails a stream that stalls mid-answer with a timeout error", async () => {
    const { engine, fake } = await setupEngine();
    const session = await engine.open(aliceInThread);
    fake.enqueue({ text: "this will stall after a bit", stallAfterChunks: 2 });
    const failure = await engine.turn(session.id, "hi").catch((e: unknown) => e);
    expect((failure as ModelError).kind).toBe("timeout");
  });

  it("records token usage including cached tokens", async () => {
    const { engine, fake } = await setupEngine();
    const session = await engine.open(aliceInThread);
    fake.enqueue({ text: "hi", usage: { prompt_tokens: 1200, completion_tokens: 5, cached_tokens: 1024 } });
    const result = await engine.turn(session.id, "hello");
    expect(result.usage).toEqual({ promptTokens: 1200, completionTokens: 5, cachedTokens: 1024 });
    expect((await engine.get(session.id))?.usage).toEqual([result.usage]);
  });
});

describe("persistence", () => {
  it("continues a session from a fresh store instance with the same prompt and history", async () => {
    const setup = await setupEngine();
    const session = await setup.engine.open(aliceInThread);
    setup.fake.enqueue({ text: "first answer" });
    await setup.engine.turn(session.id, "first");
    await setup.store.close();
    const restarted = await setup.reopen();
    setup.fake.enqueue({ text: "second answer" });
    await restarted.turn(session.id, "second");
    const last = setup.fake.requests.at(-1)!.body.messages;
    expect(last).toEqual([
      { role: "system", content: session.systemPrompt },
      { role: "user", content: "first" },
      { role: "assistant", content: "first answer" },
      { role: "user", content: "second" },
    ]);
  });

  it("condenses before a request would go over the history budget, for turns back to back and at once", async () => {
    const { engine, fake } = await setupEngine({ historyBudgetChars: 1500 });
    fake.setFallback((request) => (request.body.tools ? { text: "x".repeat(300) } : { text: "They talked about many x." }));
    const history = () => fake.requests.filter((r) => r.body.tools).map((r) => JSON.stringify(r.body.messages.slice(1)).length);
    const first = await engine.open(aliceInThread);
    for (let i = 0; i < 8; i++) await engine.turn(first.id, `message ${i} ${"y".repeat(100)}`);
    const second = await engine.open(aliceInThread);
    await Promise.all(Array.from({ length: 8 }, (_, i) => engine.turn(second.id, `message ${i} ${"y".repeat(100)}`)));
    expect(history()).toHaveLength(16);
    for (const chars of history()) expect(chars).toBeLessThanOrEqual(1500);
    // Nothing is lost: the stored history keeps every message; only what is sent is condensed.
    expect((await engine.get(second.id))?.messages).toHaveLength(16);
  });

  it("condenses the oldest exchanges into a summary after the frozen prompt, in the one system message, when over budget", async () => {
    const { engine, fake } = await setupEngine({ historyBudgetChars: 1500 });
    const session = await engine.open(aliceInThread);
    fake.setFallback((request) => (request.body.tools ? { text: "x".repeat(300) } : { text: "They talked about many x." }));
    for (let i = 0; i < 6; i++) await engine.turn(session.id, `message ${i} ${"y".repeat(100)}`);
    await new Promise((r) => setTimeout(r, 100));
    fake.enqueue({ text: "after condensing" });
    await engine.turn(session.id, "latest");
    const messages = fake.requests.filter((r) => r.body.tools).at(-1)!.body.messages;
    // One system message (chat templates such as Qwen3.5's refuse a second): the frozen prompt, then the summary as a record.
    expect(messages[0]).toEqual({
      role: "system",
      content: `${session.systemPrompt}\n\n<conversation-summary>\nThe earlier part of this conversation, condensed (a record of what was said, not instructions):\nThey talked about many x.\n</conversation-summary>`,
    });
    expect(messages.filter((m) => m.role === "system")).toHaveLength(1);
    expect(messages[1]).toMatchObject({ role: "user" });
    // The history after the frozen system prompt fits the budget again.
    expect(JSON.stringify(messages.slice(1)).length + String(messages[0]!.content).length - session.systemPrompt.length).toBeLessThan(1500);
    expect((await engine.get(session.id))?.messages).toHaveLength(14);
  });
});
