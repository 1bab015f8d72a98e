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
 * Env: DISCORD_TOKEN, DISCORD_API_URL, OPENAI_BASE_URL.
 */
import { Client, Events, GatewayIntentBits, type Message, type SendableChannels } from "discord.js";
import OpenAI from "openai";

const token = process.env.DISCORD_TOKEN;
const api = process.env.DISCORD_API_URL;
const baseURL = process.env.OPENAI_BASE_URL;
if (!token || !api || !baseURL) {
  console.error("floor bot: DISCORD_TOKEN, DISCORD_API_URL and OPENAI_BASE_URL are required");
  process.exit(1);
}

const openai = new OpenAI({ baseURL, apiKey: "not-needed", logLevel: "off" });
const client = new Client({
  intents: [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages, GatewayIntentBits.MessageContent],
  allowedMentions: { parse: [] },
  rest: { api },
});

async function answer(channel: SendableChannels, text: string): Promise<void> {
  const stream = await openai.chat.completions.create({
    model: "bench-model",
    messages: [{ role: "user", content: text }],
    stream: true,
  });
  let content = "";
  for await (const chunk of stream) content += chunk.choices[0]?.delta.content ?? "";
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
