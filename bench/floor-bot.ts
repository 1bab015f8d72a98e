/**
 * The floor: the least a discord.js + openai bot must do for the same conversation, so AgentKit's
 * figures can be read against it. Run as its own process (`node --import tsx bench/floor-bot.ts`).
 *
 * What it does (and nothing more): a message that mentions it in a text channel starts a public
 * thread from that message; that message, and every later human message in a thread the floor
 * created, gets one streaming chat completion (the person's text only: no system prompt, no
 * history, no tools, no memory, no session store) and the whole answer is sent as ONE message with
 * `allowedMentions: { parse: [] }` once the stream has ended. No typing, no edits.
 *
 * With FLOOR_DUTIES=1 it also does what every turn of a bot with memory must (section 1's row
 * "against a floor with AgentKit's per-turn duties"): a system prompt of the size of AgentKit's
 * (10,399 characters, section 4c), the thread's conversation so far in every request, and the
 * conversation saved to SQLite (WAL, 16 KiB pages, no fsync a commit, as AgentKit's session store)
 * before the answer is sent. Still no memory files, tools, sessions, routing or safety checks.
 *
 * With FLOOR_TRANSPORT=undici (`npm run bench -- --floor-transport undici`) its model requests go
 * as AgentKit's do, through undici's request (src/model/model-fetch.ts), instead of the SDK's
 * default fetch: to read AgentKit's own layers apart from that cheaper transport.
 *
 * Env: DISCORD_TOKEN, DISCORD_API_URL, OPENAI_BASE_URL; FLOOR_DUTIES, FLOOR_HOME (the SQLite file's folder); FLOOR_TRANSPORT.
 */
import { Client, Events, GatewayIntentBits, type Message, type SendableChannels } from "discord.js";
import OpenAI from "openai";
import { existsSync } from "node:fs";
import { join } from "node:path";

const token = process.env.DISCORD_TOKEN;
const api = process.env.DISCORD_API_URL;
const baseURL = process.env.OPENAI_BASE_URL;
if (!token || !api || !baseURL) {
  console.error("floor bot: DISCORD_TOKEN, DISCORD_API_URL and OPENAI_BASE_URL are required");
  process.exit(1);
}

const duties = process.env.FLOOR_DUTIES === "1";
const home = process.env.FLOOR_HOME;
if (duties && !home) {
  console.error("floor bot: FLOOR_DUTIES needs FLOOR_HOME");
  process.exit(1);
}

/** The duties' conversations (a thread's turns so far) and their store. */
type Turn = { role: "user" | "assistant"; content: string };
const conversations = new Map<string, Turn[]>();
const PROMPT_CHARS = 10_399;
const SENTENCE = "You talk with one person and remember what they told you. Answer briefly and kindly. ";
const PROMPT = SENTENCE.repeat(Math.ceil(PROMPT_CHARS / SENTENCE.length)).slice(0, PROMPT_CHARS);
const store = duties ? await openStore(join(home!, "floor.sqlite")) : undefined;

async function openStore(file: string): Promise<(id: string, value: Buffer) => Promise<void>> {
  // Loaded only with duties: the bare floor's start-up and memory stay without a native module.
  const { default: sqlite3 } = await import("sqlite3");
  const db = new sqlite3.Database(file);
  await new Promise<void>((resolve, reject) =>
    db.exec(
      "PRAGMA page_size = 16384; PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; CREATE TABLE IF NOT EXISTS conversations (id TEXT PRIMARY KEY, value BLOB)",
      (error) => (error ? reject(error) : resolve()),
    ),
  );
  // Prepared once, as AgentKit's store keeps its statements.
  const upsert = db.prepare("INSERT INTO conversations (id, value) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET value = excluded.value");
  return (id, value) => new Promise<void>((resolve, reject) => upsert.run(id, value, (error: Error | null) => (error ? reject(error) : resolve())));
}

// Compiled, this file runs beside dist/ (bench/bots.ts); under tsx, beside src/.
const transport =
  process.env.FLOOR_TRANSPORT === "undici"
    ? ((await import(
        existsSync(new URL("../dist/model/model-fetch.js", import.meta.url)) ? "../dist/model/model-fetch.js" : "../src/model/model-fetch.js"
      )) as typeof import("../src/model/model-fetch.js"))
    : undefined;
const openai = new OpenAI({ baseURL, apiKey: "not-needed", logLevel: "off", ...(transport ? { fetch: transport.modelFetch() } : {}) });
const client = new Client({
  intents: [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages, GatewayIntentBits.MessageContent],
  allowedMentions: { parse: [] },
  rest: { api },
});

async function answer(channel: SendableChannels & { id: string }, text: string): Promise<void> {
  const past = store ? (conversations.get(channel.id) ?? []) : [];
  const stream = await openai.chat.completions.create({
    model: "bench-model",
    messages: store ? [{ role: "system", content: PROMPT }, ...past, { role: "user", content: text }] : [{ role: "user", content: text }],
    stream: true,
  });
  let content = "";
  for await (const chunk of stream) content += chunk.choices[0]?.delta.content ?? "";
  if (store) {
    past.push({ role: "user", content: text }, { role: "assistant", content });
    conversations.set(channel.id, past);
    await store(channel.id, Buffer.from(JSON.stringify({ systemPrompt: PROMPT, messages: past })));
  }
  await channel.send({ content: content.slice(0, 2000) || "…", allowedMentions: { parse: [] } });
}

async function onMessage(message: Message): Promise<void> {
  if (message.author.bot || message.system) return;
  const me = client.user;
  if (!me) return;
  const channel = message.channel;
  if (channel.isThread()) {
    if (channel.ownerId !== me.id) return;
    await answer(channel, message.content);
    return;
  }
  if (!message.mentions.users.has(me.id)) return;
  const text = message.content.replaceAll(new RegExp(`<@!?${me.id}>`, "g"), "").trim();
  const thread = await message.startThread({ name: (text.split("\n")[0] || "chat").slice(0, 100), autoArchiveDuration: 1440 });
  await answer(thread, text || "Hello!");
}

client.on(Events.MessageCreate, (message) => {
  onMessage(message).catch((error: unknown) => console.error(`floor bot: ${String(error)}`));
});
client.once(Events.ClientReady, () => console.log("floor bot ready"));
const stop = () => void client.destroy().finally(() => process.exit(0));
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
await client.login(token);
