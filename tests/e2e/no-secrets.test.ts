import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseConversation } from "../../src/memory/conversation-log.js";
import { slashOption as s } from "../fakes/fake-discord/index.js";
import type { RecordedRequest } from "../fakes/fake-openai.js";
import { botMessages, startBot, type BotHarness } from "../helpers/bot-harness.js";
import { luhnNumber, plain, SECOND_BATCH_SECRETS, SECRETS, type SecretSample } from "../unit/memory/secret-corpus.js";

// Built from pieces so that no scanner takes this file for a leak.
const key = ["sk-", "proj-", "Zq3Wm8Kp2Lr7Tn4Vb9Xc1Hd6Jf0Gs5Ya2Ue8IoP4aS7dF1gH"].join("");
const card = luhnNumber("4", 16);
const grouped = card.replace(/(\d{4})(?=\d)/g, "$1 ");

/** Pieces of the secrets that must not be anywhere: the key's tail, and the card's last eight digits in any spacing. */
function expectNoSecret(text: string): void {
  expect(text).not.toContain(key.slice(-16));
  expect(text.replace(/[\s-]/g, "")).not.toContain(card.slice(8));
}

const isSummaryRequest = (r: RecordedRequest) => String(r.body.messages[0]?.content ?? "").includes("personal daily log");

/** Alice talks in a thread: a key, then a card number split over two messages; the model tries to save the key; then /end. */
async function conversationWithSecrets(h: BotHarness): Promise<string> {
  h.model.enqueue(
    { toolCalls: [{ name: "memory_add", arguments: { file: "user", section: "Keys", content: `OpenAI key ${key}` } }] },
    { text: "I can't keep keys in memory, but I noted that you use OpenAI." },
    { text: "Go on." },
    { text: `Got it: ${grouped}.` },
  );
  const start = await h.discord.userSends({
    channelId: h.discord.textChannel.id,
    userId: h.discord.alice.id,
    content: `my OpenAI key is ${key}, keep it for me`,
    mentionsBot: true,
  });
  const thread = start.id;
  await h.discord.waitFor(() => botMessages(h.discord, thread).find((m) => m.content.startsWith("I can't keep keys")));
  for (const [content, reply] of [
    [`and my card is ${grouped.slice(0, 9)}`, "Go on."],
    [`${grouped.slice(10)} exp 12/29`, "Got it"],
  ] as const) {
    const before = botMessages(h.discord, thread).length;
    await h.discord.userSends({ channelId: thread, userId: h.discord.alice.id, content });
    await h.discord.waitFor(() =>
      botMessages(h.discord, thread)
        .slice(before)
        .find((m) => m.content.startsWith(reply)),
    );
  }
  // The summary repeats both, as a model may.
  h.model.enqueue({ text: `Alice shared her OpenAI key ${key} and her card ${grouped}.` });
  const end = h.discord.runSlashCommand({ userId: h.discord.alice.id, channelId: thread, name: "end" });
  await h.discord.waitFor(() => h.discord.interactionResponses(end.id).find((r) => r.content?.includes("ended")));
  await h.engine.settle();
  return thread;
}

async function memorySearch(h: BotHarness, query: string): Promise<string> {
  const call = h.discord.runSlashCommand({
    userId: h.discord.alice.id,
    channelId: h.discord.textChannel.id,
    name: "memory",
    options: [s.subcommand("search", [s.string("query", query)])],
  });
  return (await h.discord.waitFor(() => h.discord.interactionResponses(call.id).find((r) => r.content))).content!;
}

describe("a secret said in a conversation is never stored", () => {
  it("the refused write, the conversation file, the daily log, the summary request and the closed session hold placeholders instead", async () => {
    const h = await startBot();
    const thread = await conversationWithSecrets(h);
    const dir = join(h.home, "users", h.discord.alice.id);

    // The model's write was refused, as before.
    expect(await readFile(join(dir, "USER.md"), "utf8").catch(() => "")).not.toContain("Keys");

    const [file] = await readdir(join(dir, "conversations"));
    const transcript = await readFile(join(dir, "conversations", file!), "utf8");
    expectNoSecret(transcript);
    expect(transcript).toContain("my OpenAI key is [secret: OpenAI key], keep it for me");
    expect(transcript).toContain("[secret: card number]");
    // Still a conversation file: every message comes back.
    expect(parseConversation(transcript).messages.map((m) => m.speaker)).toEqual(["person", "assistant", "person", "assistant", "person", "assistant"]);

    const [log] = await readdir(join(dir, "daily"));
    const daily = await readFile(join(dir, "daily", log!), "utf8");
    expectNoSecret(daily);
    expect(daily).toContain("Alice shared her OpenAI key [secret: OpenAI key] and her card [secret: card number].");

    const summaryRequest = h.model.requests.find(isSummaryRequest)!;
    expectNoSecret(JSON.stringify(summaryRequest.body));

    const record = await h.engine.latestIn(thread);
    expect(record?.status).toBe("closed");
    expectNoSecret(JSON.stringify(record));
  });

  it("search, by the person and by the model in a later session, and the next session's prompt find the placeholder, never the secret", async () => {
    const h = await startBot();
    await conversationWithSecrets(h);

    const found = await memorySearch(h, "OpenAI key card");
    expect(found).toContain("[secret: OpenAI key]");
    expectNoSecret(found);
    // Searching for the key itself finds nothing: the index never held it.
    expect(await memorySearch(h, key)).toMatch(/^Nothing found for/);

    const asked = h.model.requests.length;
    h.model.enqueue({ toolCalls: [{ name: "memory_search", arguments: { query: "OpenAI key card" } }] }, { text: "You shared them, but I keep no keys." });
    const start = await h.discord.userSends({
      channelId: h.discord.textChannel.id,
      userId: h.discord.alice.id,
      content: "what was my key?",
      mentionsBot: true,
    });
    await h.discord.waitFor(() => botMessages(h.discord, start.id).find((m) => m.content.startsWith("You shared them")));
    const [first, second] = h.model.requests.slice(asked);
    expect(String(first!.body.messages[0]!.content)).toContain("[secret: OpenAI key]");
    expectNoSecret(JSON.stringify(first!.body));
    const toolResult = second!.body.messages.find((m) => m.role === "tool");
    expect(String(toolResult?.content)).toContain("[secret: OpenAI key]");
    expectNoSecret(JSON.stringify(second!.body));
  });
});

describe("attachments", () => {
  const config = ["model: gpt-4o", `api_key: ${key}`, "db:", "  password: Wq9-tz4Lp!", "  host: db.internal"].join("\n");

  it("masks secrets in a text file before the model or the history sees it, says so, and refuses dotenv and credential files", async () => {
    const h = await startBot();
    h.model.enqueue({ text: "Hello Alice." });
    const start = await h.discord.userSends({ channelId: h.discord.textChannel.id, userId: h.discord.alice.id, content: "hi", mentionsBot: true });
    await h.discord.waitFor(() => botMessages(h.discord, start.id)[0]);
    h.model.enqueue({ text: "Your config looks fine." });
    await h.discord.userSends({
      channelId: start.id,
      userId: h.discord.alice.id,
      content: "why does this fail?",
      attachments: [
        { filename: "config.yml", contentType: "text/yaml", data: config },
        { filename: ".env.local", contentType: "text/plain", data: `OPENAI_API_KEY=${key}` },
        { filename: "credentials.json", contentType: "application/json", data: `{"token": "${key}"}` },
        { filename: ".env.example", contentType: "text/plain", data: "OPENAI_API_KEY=" },
      ],
    });
    const reply = await h.discord.waitFor(() => botMessages(h.discord, start.id).find((m) => m.content.startsWith("Your config")));
    expect(reply.content.split("\n")).toEqual([
      "Your config looks fine.",
      "-# 🔒 config.yml: I hid 2 things that look like secrets (an OpenAI API key, a password) before reading it.",
      "-# 🔒 .env.local: I don't read this file; files like .env and private keys usually hold secrets.",
      "-# 🔒 credentials.json: I don't read this file; files like .env and private keys usually hold secrets.",
    ]);
    const asked = String(h.model.requests.at(-1)!.body.messages.at(-1)!.content);
    expect(asked).toContain("api_key: [secret: OpenAI key]\ndb:\n  password: [secret: password]\n  host: db.internal");
    expect(asked).toContain("📄 .env.example:\n```\nOPENAI_API_KEY=\n```");
    expectNoSecret(asked);
    expect(h.discord.cdnRequests.map((r) => r.path.split("/").at(-1))).not.toContain(".env.local");
    expectNoSecret(JSON.stringify(await h.engine.latestIn(start.id)));
  });

  it("says it in Chinese for a zh-CN person", async () => {
    const h = await startBot();
    await h.engine.memoryOf(h.discord.alice.id).saveSettings({ locale: "zh-CN" });
    const dm = h.discord.openDm(h.discord.alice.id);
    h.model.enqueue({ text: "配置没问题。" });
    await h.discord.userSends({
      channelId: dm.id,
      userId: h.discord.alice.id,
      content: "看看",
      attachments: [{ filename: "config.yml", contentType: "text/yaml", data: config }],
    });
    const reply = await h.discord.waitFor(() => botMessages(h.discord, dm.id)[0]);
    expect(reply.content).toBe("配置没问题。\n-# 🔒 config.yml：读取前我隐去了 2 处看起来像密钥的内容（OpenAI API 密钥、密码）。");
  });
});

/** One of each shape the second batch added (Slack app-level, key bodies without their BEGIN line, PyPI, Docker Hub and Vault tokens, passphrases and recovery phrases, PINs) and a password labelled in each language. */
function newShapes(): SecretSample[] {
  const labels = [...new Set(SECOND_BATCH_SECRETS.map((s) => s.label))].filter((label) => label !== "password");
  const byLabel = labels.map((label) => SECOND_BATCH_SECRETS.find((s) => s.label === label && !s.knownMiss && s.text.length < 1900)!);
  const passwords = ["contraseña", "mot de passe", "Passwort", "パスワード"].map(
    (word) => SECOND_BATCH_SECRETS.find((s) => s.label === "password" && s.text.includes(word) && !s.knownMiss)!,
  );
  return [...byLabel, ...passwords, SECRETS.find((s) => s.text.includes("密码"))!];
}

describe("the newer secret shapes, through the bot", () => {
  it("the model's write of each is refused, and the conversation file masks it", async () => {
    const h = await startBot();
    const samples = newShapes();
    expect(samples.every(Boolean)).toBe(true);
    expect(samples.length).toBeGreaterThanOrEqual(12);
    h.model.enqueue({ text: "Hello." });
    const start = await h.discord.userSends({ channelId: h.discord.textChannel.id, userId: h.discord.alice.id, content: "hi", mentionsBot: true });
    const thread = start.id;
    await h.discord.waitFor(() => botMessages(h.discord, thread).find((m) => m.content.startsWith("Hello.")));
    for (const [i, sample] of samples.entries()) {
      h.model.enqueue({ toolCalls: [{ name: "memory_add", arguments: { file: "memory", section: "Keep", content: sample.text } }] }, { text: `Reply ${i}.` });
      await h.discord.userSends({ channelId: thread, userId: h.discord.alice.id, content: sample.text });
      await h.discord.waitFor(() => botMessages(h.discord, thread).find((m) => m.content.startsWith(`Reply ${i}.`)));
    }
    // Each tool result is sent again with the later requests: one per call, by its id.
    const results = new Map(
      h.model.requests
        .flatMap((r) => r.body.messages)
        .filter((m) => m.role === "tool")
        .map((m) => [(m as { tool_call_id: string }).tool_call_id, JSON.parse(String(m.content)) as { ok: boolean; error?: string }]),
    );
    const distinct = [...results.values()];
    expect(distinct.length).toBe(samples.length);
    for (const result of distinct) expect(result).toMatchObject({ ok: false, error: expect.stringContaining("never stored in memory") });
    const dir = join(h.home, "users", h.discord.alice.id);
    expect(await readFile(join(dir, "MEMORY.md"), "utf8").catch(() => "")).toBe("");
    h.model.enqueue({ text: "They talked." });
    const end = h.discord.runSlashCommand({ userId: h.discord.alice.id, channelId: thread, name: "end" });
    await h.discord.waitFor(() => h.discord.interactionResponses(end.id).find((r) => r.content?.includes("ended")));
    await h.engine.settle();
    const [file] = await readdir(join(dir, "conversations"));
    // The file's own ids (Discord snowflakes, the session's UUID) are random digits: a four-digit PIN
    // may turn up inside one by chance (CI once found "4729" in a message id), so they are set aside.
    const transcript = plain(await readFile(join(dir, "conversations", file!), "utf8"))
      .replace(/\b\d{17,20}\b/g, "<snowflake>")
      .replace(/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/g, "<uuid>");
    for (const sample of samples) expect(transcript, sample.label).not.toContain(plain(sample.secret));
  });
});
