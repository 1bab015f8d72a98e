import { readFile } from "node:fs/promises";
import { join } from "node:path";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { tidyUp } from "../../../src/engine/tidy/tidy-up.js";
import type { ServerNotice } from "../../../src/model/model-client.js";
import { noTelemetry, type ModelOutcome, type Telemetry } from "../../../src/lib/telemetry.js";
import { startFakeOpenAI, type FakeOpenAI, type RecordedRequest, type ScriptedReply } from "../../fakes/fake-openai.js";
import {
  imageUrls,
  llamaCpp,
  llamaCppBefore12379,
  llamaCppOneSystemMessage,
  llamaCppWithoutJinja,
  lmStudio,
  ollama,
  ollama046,
  ollamaIndexZero,
  ollamaWithoutTools,
  openai,
  slowHardware,
  vllm,
  vllmWithoutAutoToolChoice,
  type ServerMode,
} from "../../fakes/model-servers.js";
import { aliceInThread, setupEngine } from "../../helpers/engine.js";
import { gif } from "../../helpers/image-fixtures.js";

/**
 * The conformance suite: AgentKit through its real engine and the real openai SDK against each
 * model server as it really answers (tests/fakes/model-servers.ts). For every server: a reply
 * that saves two facts in one round, an image (a GIF), a long conversation condensed within the
 * server's context, /end with its summary, and a night's tidy-up.
 */

interface Case {
  mode: () => ServerMode;
  /** The model can call tools here; otherwise it answers and says once that it cannot save. */
  tools: boolean;
  /** The model sees images here; otherwise they are left out and the person told. */
  vision: boolean;
  /** The server's context, in tokens: AgentKit is given the same (OPENAI_CONTEXT_TOKENS). */
  context: number;
  /** Timeouts: a slow server needs the long one for its long answers. */
  timeoutMs?: number;
}

const CONTEXT = 6_000;
const cases: Case[] = [
  { mode: () => openai, tools: true, vision: true, context: CONTEXT },
  { mode: () => ollama({ contextTokens: CONTEXT }), tools: true, vision: true, context: CONTEXT },
  // Ollama 0.4.6 reads 2,048 tokens unless the model's Modelfile sets num_ctx (OLLAMA_CONTEXT_LENGTH came in 0.5.13).
  { mode: () => ollama046({ contextTokens: CONTEXT }), tools: true, vision: true, context: CONTEXT },
  { mode: () => ollamaIndexZero({ contextTokens: CONTEXT }), tools: true, vision: true, context: CONTEXT },
  { mode: () => ollamaWithoutTools("llava"), tools: false, vision: true, context: CONTEXT },
  { mode: () => llamaCpp({ contextTokens: CONTEXT }), tools: true, vision: true, context: CONTEXT },
  { mode: () => llamaCppBefore12379({ contextTokens: CONTEXT }), tools: true, vision: false, context: CONTEXT },
  { mode: llamaCppWithoutJinja, tools: false, vision: true, context: CONTEXT },
  { mode: llamaCppOneSystemMessage, tools: true, vision: true, context: CONTEXT },
  { mode: () => vllm({ contextTokens: CONTEXT }), tools: true, vision: false, context: CONTEXT },
  { mode: vllmWithoutAutoToolChoice, tools: false, vision: false, context: CONTEXT },
  { mode: lmStudio, tools: true, vision: true, context: CONTEXT },
  // Reads the prompt at 40,000 tokens a second and writes 400: a long answer takes longer than
  // OPENAI_TIMEOUT_SECONDS (here 0.3 s) before its first byte unless it streams.
  { mode: () => slowHardware({ tokensPerSecond: 400, promptTokensPerSecond: 40_000 }), tools: true, vision: true, context: CONTEXT, timeoutMs: 300 },
];

const FACTS = "Please remember: I like oolong tea, and my cat is called Mochi.";
const PLAN = {
  operations: [
    {
      kind: "move",
      file: "user",
      section: "Home",
      old_lines: [],
      new_lines: ["- Lives in Berlin (moved 2026-11-20)"],
      reason: "said so",
      source: "conversation",
      quote: "we moved to Berlin last week",
    },
  ],
};

const lastUserText = (request: RecordedRequest) => {
  const content = [...request.body.messages].reverse().find((m) => m.role === "user")?.content;
  return typeof content === "string" ? content : (content ?? []).map((p) => (p.type === "text" ? p.text : "")).join(" ");
};

/** The model behind every server: what it answers depends only on what it is asked. */
function theModel(request: RecordedRequest): ScriptedReply {
  const body = request.body;
  const system = String(body.messages[0]?.content ?? "");
  if (system.startsWith("You tidy")) return { text: JSON.stringify(PLAN) };
  if (system.startsWith("You write entries for a personal daily log")) return { text: "They talked about tea, the cat Mochi and the move to Berlin." };
  if (system.startsWith("Condense this conversation")) return { text: "Earlier they talked about tea and a long trip." };
  if (system.startsWith("You condense a personal daily log")) return { text: "## 10:00 · tea talk\nTea." };
  if (body.messages.at(-1)?.role === "tool") return { text: "Saved both." };
  const words = lastUserText(request);
  if (body.tools?.length && words.startsWith("Please remember")) {
    return {
      toolCalls: [
        { name: "memory_add", arguments: { file: "user", section: "Drinks", content: "- Likes oolong tea" } },
        { name: "memory_add", arguments: { file: "user", section: "Pets", content: "- Has a cat called Mochi" } },
      ],
    };
  }
  const images = imageUrls(body);
  if (images.length > 0) return { text: `I see ${images.length} image(s).` };
  return { text: `You said: ${words.slice(0, 60)}` };
}

interface World {
  fake: FakeOpenAI;
  mode: ServerMode;
  notices: ServerNotice[];
  outcomes: ModelOutcome[];
  setup: Awaited<ReturnType<typeof setupEngine>>;
}

async function world(c: Case, options: { historyBudgetChars?: number } = {}): Promise<World> {
  const mode = c.mode();
  const fake = await startFakeOpenAI({ server: mode });
  fake.setFallback(theModel);
  const notices: ServerNotice[] = [];
  const outcomes: ModelOutcome[] = [];
  const telemetry: Telemetry = { ...noTelemetry, modelRequest: (outcome) => void outcomes.push(outcome) };
  const setup = await setupEngine({
    fake,
    telemetry,
    contextTokens: c.context,
    ...(options.historyBudgetChars ? { historyBudgetChars: options.historyBudgetChars } : {}),
    model: { timeoutMs: c.timeoutMs ?? 5_000, streamIdleMs: 2_000, longTimeoutMs: 5_000, onNotice: (notice) => void notices.push(notice) },
  });
  return { fake, mode, notices, outcomes, setup: setup };
}

/** What every request to every server must be: one system message, first; replayed arguments that parse. */
function expectWellFormed(fake: FakeOpenAI): void {
  for (const { body } of fake.requests) {
    const systems = body.messages.map((m, i) => (m.role === "system" ? i : -1)).filter((i) => i >= 0);
    expect(systems).toEqual([0]);
    for (const m of body.messages) {
      if (m.role !== "assistant" || !m.tool_calls) continue;
      for (const call of m.tool_calls) if (call.type === "function") expect(() => JSON.parse(call.function.arguments)).not.toThrow();
    }
  }
}

describe.each(cases.map((c) => [c.mode().name, c] as const))("with %s", (_name, c) => {
  it("saves two facts from one round, or answers and says once that this model cannot save", async () => {
    const { fake, notices, setup } = await world(c);
    const session = await setup.engine.open(aliceInThread);
    const first = await setup.engine.turn(session.id, FACTS);
    const user = await readFile(join(setup.home, "users/111/USER.md"), "utf8").catch(() => "");
    if (c.tools) {
      expect(user).toContain("- Likes oolong tea");
      expect(user).toContain("- Has a cat called Mochi");
      expect(first.changes).toHaveLength(2);
      expect(first.text).toContain("Saved both.");
      expect(first.limits.noTools).toBeUndefined();
    } else {
      expect(user).toBe("");
      expect(first.text).toContain("You said: Please remember");
      expect(first.limits.noTools).toBe(true);
      // The operator hears once, with the server's own words and the fix.
      expect(notices.map((n) => n.action)).toEqual(["without-tools"]);
      expect(notices[0]!.error.details.reason).toBeTruthy();
      expect(notices[0]!.error.details.refusal).toMatch(/^(no-tools|tools-need-jinja|tools-need-parser)$/);
    }
    // Learned for the process: the next turn costs no refused request.
    const refusedBefore = fake.requests.filter((r) => r.refused).length;
    const second = await setup.engine.turn(session.id, "And what about today?");
    expect(second.text).toContain("You said: And what about today?");
    expect(fake.requests.filter((r) => r.refused).length).toBe(refusedBefore);
    expect(Boolean(second.limits.noTools)).toBe(!c.tools);
    expectWellFormed(fake);
  });

  it("answers a message with a GIF: sent as a PNG of its first frame, or left out with a note", async () => {
    const { fake, setup } = await world(c);
    const session = await setup.engine.open(aliceInThread);
    const dataUrl = `data:image/gif;base64,${gif(4, 3, 2).toString("base64")}`;
    const result = await setup.engine.turn(session.id, { text: "What is in this picture?", images: [{ dataUrl, placeholder: "[image: cat.gif, 4×3]" }] });
    const answered = fake.requests.filter((r) => !r.refused).at(-1)!;
    expect(imageUrls(answered.body).every((url) => url.startsWith("data:image/png;base64,"))).toBe(true);
    if (c.vision) {
      expect(result.text).toBe("I see 1 image(s).");
      const png = Buffer.from(imageUrls(answered.body)[0]!.split(",")[1]!, "base64");
      expect(await sharp(png).metadata()).toMatchObject({ format: "png", width: 4, height: 3 });
      expect(result.limits.noImages).toBeUndefined();
    } else {
      expect(result.text).toContain("You said: What is in this picture?");
      expect(result.limits.noImages).toBe(true);
    }
    // The stored history keeps the placeholder, never image data.
    expect(JSON.stringify((await setup.engine.get(session.id))!.messages)).toContain("[image: cat.gif, 4×3]");
    expectWellFormed(fake);
  });

  it("condenses a long conversation into the one system message and summarises it at the end, every request within the server's context", async () => {
    const { fake, mode, setup } = await world(c);
    const session = await setup.engine.open(aliceInThread);
    for (let i = 0; i < 18; i++) await setup.engine.turn(session.id, `Day ${i} of the trip: ${"we walked along the river and talked about tea. ".repeat(30)}`);
    await setup.engine.settle();
    const record = (await setup.engine.get(session.id))!;
    expect(record.condensed?.summary).toBe("Earlier they talked about tea and a long trip.");
    const last = await setup.engine.turn(session.id, "Where were we?");
    expect(last.text).toContain("You said: Where were we?");
    // The condensed summary rides in the first and only system message.
    const sent = fake.requests.filter((r) => r.body.tools || r.body.messages.length > 2).at(-1)!;
    expect(String(sent.body.messages[0]!.content)).toContain("<conversation-summary>");
    expectWellFormed(fake);
    // Its summary at the end reads what the context allows of it.
    expect(await setup.engine.close(session.id, "end")).toBe("closed");
    // Nothing was cut by the server, and nothing refused for its length.
    expect(mode.truncated ?? 0).toBe(0);
    expect(fake.requests.filter((r) => JSON.stringify(r.refused ?? "").match(/context/i))).toEqual([]);
  });

  it("ends with a summary in the daily log (/end)", async () => {
    const { fake, outcomes, setup } = await world(c);
    const session = await setup.engine.open(aliceInThread);
    await setup.engine.turn(session.id, "Big news: we moved to Berlin last week.");
    expect(await setup.engine.close(session.id, "end")).toBe("closed");
    const day = (await import("node:fs/promises")).readdir(join(setup.home, "users/111/daily"));
    const log = await readFile(join(setup.home, "users/111/daily", (await day).find((f) => f.endsWith(".md"))!), "utf8");
    expect(log).toContain("They talked about tea, the cat Mochi and the move to Berlin.");
    // A long answer streams (its headers come at once); no time-out, nothing counted as refused but real refusals.
    const summary = fake.requests.find((r) => String(r.body.messages[0]?.content).startsWith("You write entries"))!;
    expect(summary.body.stream).toBe(true);
    expect(outcomes).not.toContain("timeout");
    expectWellFormed(fake);
  });

  it("tidies the profile at night from what the person said", async () => {
    const { fake, outcomes, setup } = await world(c);
    const session = await setup.engine.open(aliceInThread);
    await setup.engine.turn(session.id, "Big news: we moved to Berlin last week.");
    await setup.engine.close(session.id, "end");
    const result = await tidyUp(setup.engine.memoryOf("111"), setup.model, { force: true, contextTokens: c.context });
    expect(result.kind).toBe("done");
    expect(await readFile(join(setup.home, "users/111/USER.md"), "utf8")).toContain("- Lives in Berlin (moved 2026-11-20)");
    const tidy = fake.requests.filter((r) => String(r.body.messages[0]?.content).startsWith("You tidy"));
    // Asked once, with the schema: no server here refuses response_format, and Ollama 0.4.6 ignores it.
    expect(tidy).toHaveLength(1);
    expect(tidy[0]!.body.response_format).toMatchObject({ type: "json_schema" });
    expect(outcomes).not.toContain("timeout");
    expect(outcomes.filter((o) => o === "refused").length).toBe(fake.requests.filter((r) => r.refused).length);
  });
});

describe.each([
  ["vLLM", () => vllm()],
  ["Ollama", () => ollama()],
  ["llama.cpp", () => llamaCpp()],
] as const)("a malformed tool call on %s", (_name, server) => {
  it("is never sent back as it was: the model is told what was wrong, tries again, and the conversation goes on", async () => {
    const fake = await startFakeOpenAI({ server: server() });
    const setup = await setupEngine({ fake });
    const session = await setup.engine.open(aliceInThread);
    // vLLM's docs: with a parser, "arguments may occasionally be malformed" (docs/features/tool_calling.md).
    fake.enqueue(
      { toolCalls: [{ name: "memory_add", arguments: '{"file": "user", "section": "Drinks", "content": "- Likes oolong' }] },
      { toolCalls: [{ name: "memory_add", arguments: { file: "user", section: "Drinks", content: "- Likes oolong tea" } }] },
      { text: "Saved." },
    );
    const first = await setup.engine.turn(session.id, FACTS);
    expect(first.text).toBe("Saved.");
    expect(await readFile(join(setup.home, "users/111/USER.md"), "utf8")).toContain("- Likes oolong tea");
    // What the model read after its broken call: the error, as a tool result.
    const second = fake.requests[1]!.body.messages;
    expect(String(second.at(-1)!.content)).toContain("not valid JSON");
    fake.setFallback(theModel);
    const next = await setup.engine.turn(session.id, "Thanks!");
    expect(next.text).toContain("You said: Thanks!");
    expect(fake.requests.filter((r) => r.refused)).toEqual([]);
    expectWellFormed(fake);
    await fake.close();
  });
});

describe.each([
  ["llama.cpp", () => llamaCpp({ contextTokens: CONTEXT })],
  ["Ollama", () => ollama({ contextTokens: CONTEXT })],
] as const)("what cannot fit on %s", (_name, server) => {
  it("a message longer than the context is read from its start, and a long summary from the model is cut, every request within the context", async () => {
    const mode = server();
    const fake = await startFakeOpenAI({ server: mode });
    fake.setFallback((request) =>
      String(request.body.messages[0]?.content).startsWith("Condense")
        ? { text: "Earlier: ".concat("they talked about a very long trip. ".repeat(800)) }
        : theModel(request),
    );
    const setup = await setupEngine({ fake, contextTokens: CONTEXT });
    const session = await setup.engine.open(aliceInThread);
    const pasted = await setup.engine.turn(session.id, `Here is my log: ${"the machine rebooted again at noon. ".repeat(2_000)}`);
    expect(pasted.limits.messageCut).toBe(true);
    expect(pasted.text).toContain("You said: Here is my log");
    for (let i = 0; i < 6; i++) await setup.engine.turn(session.id, `Day ${i}: ${"we walked along the river. ".repeat(40)}`);
    await setup.engine.settle();
    expect((await setup.engine.get(session.id))!.condensed).toBeDefined();
    expect(await setup.engine.close(session.id, "end")).toBe("closed");
    expect(fake.requests.filter((r) => r.refused)).toEqual([]);
    expect(mode.truncated ?? 0).toBe(0);
    // The history keeps the whole message.
    expect(JSON.stringify((await setup.engine.get(session.id))!.messages)).toContain("the machine rebooted again at noon. ".repeat(2_000));
    await fake.close();
  });
});
