import { existsSync } from "node:fs";
import { join } from "node:path";
import sqlite3 from "sqlite3";
import { describe, expect, it } from "vitest";
import { botMessages } from "../helpers/bot-harness.js";
import { runTsx } from "../helpers/child-process.js";
import { startFakes } from "../helpers/fakes.js";

/** The bench's floor bot (bench/floor-bot.ts) against the fakes; `duties` sets FLOOR_DUTIES. */
async function floorTalk(duties: boolean) {
  const { discord, model, home } = await startFakes();
  const bot = runTsx("bench/floor-bot.ts", [], {
    DISCORD_TOKEN: discord.token,
    DISCORD_API_URL: discord.apiUrl,
    OPENAI_BASE_URL: model.baseURL,
    FLOOR_HOME: home,
    ...(duties ? { FLOOR_DUTIES: "1" } : {}),
  });
  await discord.waitFor(() => discord.openGatewaySessions > 0, 20_000);
  model.enqueue({ text: "First answer." }, { text: "Second answer." });
  const start = await discord.userSends({ channelId: discord.textChannel.id, userId: discord.alice.id, content: "hello floor", mentionsBot: true });
  const thread = await discord.waitFor(() => discord.thread(start.id));
  await discord.waitFor(() => botMessages(discord, thread.id).find((m) => m.content === "First answer."));
  await discord.userSends({ channelId: thread.id, userId: discord.alice.id, content: "and again" });
  await discord.waitFor(() => botMessages(discord, thread.id).find((m) => m.content === "Second answer."));
  bot.child.kill("SIGTERM");
  await bot.exited;
  return { requests: model.requests.map((r) => r.body.messages), home, threadId: thread.id };
}

async function storedConversation(file: string, id: string): Promise<{ systemPrompt: string; messages: { role: string; content: string }[] } | undefined> {
  const db = await new Promise<sqlite3.Database>((resolve, reject) => {
    const opened = new sqlite3.Database(file, sqlite3.OPEN_READONLY, (error) => (error ? reject(error) : resolve(opened)));
  });
  return new Promise((resolve, reject) =>
    db.get("SELECT value FROM conversations WHERE id = ?", [id], (error, row: { value: Buffer } | undefined) => {
      db.close();
      if (error) reject(error);
      else resolve(row && JSON.parse(row.value.toString("utf8")));
    }),
  );
}

describe("the bench's floor with AgentKit's per-turn duties (FLOOR_DUTIES)", () => {
  it("sends a prompt of AgentKit's size and the conversation so far, and saves the conversation before it answers", async () => {
    const { requests, home, threadId } = await floorTalk(true);
    const [first, second] = requests;
    expect(first?.map((m) => m.role)).toEqual(["system", "user"]);
    expect(String(first?.[0]?.content).length).toBe(10_399);
    expect(second?.map((m) => [m.role, m.content]).slice(1)).toEqual([
      ["user", "hello floor"],
      ["assistant", "First answer."],
      ["user", "and again"],
    ]);
    // The second answer was shown only after its save: the stored conversation holds it.
    const stored = await storedConversation(join(home, "floor.sqlite"), threadId);
    expect(stored?.systemPrompt.length).toBe(10_399);
    expect(stored?.messages.map((m) => m.content)).toEqual(["hello floor", "First answer.", "and again", "Second answer."]);
  });

  it("stays the bare floor without it: the person's words alone, nothing stored", async () => {
    const { requests, home } = await floorTalk(false);
    expect(requests.map((messages) => messages.map((m) => [m.role, m.content]))).toEqual([[["user", "hello floor"]], [["user", "and again"]]]);
    expect(existsSync(join(home, "floor.sqlite"))).toBe(false);
  });
});
