import { existsSync } from "node:fs";
import { join } from "node:path";
import sqlite3 from "sqlite3";
import { describe, expect, it } from "vitest";
import { botMessages } from "../helpers/bot-harness.js";
import { runTsx } from "../helpers/child-process.js";
import { eventually } from "../helpers/eventually.js";
import { startFakes } from "../helpers/fakes.js";

type Stored = { systemPrompt: string; messages: { role: string; content: string }[] };

/**
 * The bench's floor bot (bench/floor-bot.ts) against the fakes, `duties` setting FLOOR_DUTIES: a
 * first answer, then a second message whose answer Discord refuses to post (403).
 */
async function floorTalk(duties: boolean, transport?: "undici") {
  const { discord, model, home } = await startFakes();
  const bot = runTsx("bench/floor-bot.ts", [], {
    DISCORD_TOKEN: discord.token,
    DISCORD_API_URL: discord.apiUrl,
    OPENAI_BASE_URL: model.baseURL,
    FLOOR_HOME: home,
    ...(duties ? { FLOOR_DUTIES: "1" } : {}),
    ...(transport ? { FLOOR_TRANSPORT: transport } : {}),
  });
  await discord.waitFor(() => discord.openGatewaySessions > 0, 15_000, "the floor bot's gateway session");
  model.enqueue({ text: "First answer." }, { text: "Second answer." });
  const start = await discord.userSends({ channelId: discord.textChannel.id, userId: discord.alice.id, content: "hello floor", mentionsBot: true });
  const thread = await discord.waitFor(() => discord.thread(start.id));
  await discord.waitFor(() => botMessages(discord, thread.id).find((m) => m.content === "First answer."));
  discord.failNext({ method: "POST", route: "/channels/:channelId/messages", status: 403, body: { message: "Missing Permissions", code: 50013 } });
  await discord.userSends({ channelId: thread.id, userId: discord.alice.id, content: "and again" });
  await model.waitForRequests(2);
  return {
    requests: () => model.requests.map((r) => r.body.messages.map((m) => [m.role, String(m.content)])),
    headers: () => model.requests.map((r) => r.headers),
    stored: () => storedConversation(join(home, "floor.sqlite"), thread.id),
    database: join(home, "floor.sqlite"),
    shown: () => botMessages(discord, thread.id).map((m) => m.content),
    stop: async () => {
      bot.child.kill("SIGTERM");
      await bot.exited;
    },
  };
}

async function storedConversation(file: string, id: string): Promise<Stored | undefined> {
  const db = await new Promise<sqlite3.Database>((resolve, reject) => {
    const opened = new sqlite3.Database(file, sqlite3.OPEN_READONLY, (error) => (error ? reject(error) : resolve(opened)));
  });
  return new Promise((resolve, reject) =>
    db.get("SELECT value FROM conversations WHERE id = ?", [id], (error, row: { value: Buffer } | undefined) => {
      db.close();
      if (error) reject(error);
      else resolve(row && (JSON.parse(row.value.toString("utf8")) as Stored));
    }),
  );
}

describe("the bench's floor with AgentKit's per-turn duties (FLOOR_DUTIES)", () => {
  it("sends a prompt of AgentKit's size and the conversation so far with every request, and saves an answer before it posts it", async () => {
    const talk = await floorTalk(true);
    const [first, second] = talk.requests();
    expect(first?.map(([role]) => role)).toEqual(["system", "user"]);
    expect(first?.[0]?.[1]).toHaveLength(10_399);
    expect(second).toEqual([
      ["system", first?.[0]?.[1]],
      ["user", "hello floor"],
      ["assistant", "First answer."],
      ["user", "and again"],
    ]);
    // Discord refused to post the second answer: it was saved all the same, so the save came first.
    const stored = await eventually(
      async () => {
        const now = await talk.stored();
        return now?.messages.length === 4 && now;
      },
      10_000,
      "the second answer in the floor's store",
    );
    expect(stored.systemPrompt).toHaveLength(10_399);
    expect(stored.messages.map((m) => m.content)).toEqual(["hello floor", "First answer.", "and again", "Second answer."]);
    expect(talk.shown()).not.toContain("Second answer.");
    await talk.stop();
  });

  it("stays the bare floor without it: the person's words alone, nothing stored, sent with the SDK's fetch", async () => {
    const talk = await floorTalk(false);
    expect(talk.requests()).toEqual([[["user", "hello floor"]], [["user", "and again"]]]);
    // Node's fetch asks for compression; AgentKit's transport (FLOOR_TRANSPORT=undici) asks for none.
    expect(talk.headers().map((h) => h["accept-encoding"])).toEqual(["gzip, deflate", "gzip, deflate"]);
    await talk.stop();
    expect(existsSync(talk.database)).toBe(false);
  });

  it("sends as AgentKit does with FLOOR_TRANSPORT=undici (`--floor-transport undici`)", async () => {
    const talk = await floorTalk(false, "undici");
    expect(talk.requests()).toEqual([[["user", "hello floor"]], [["user", "and again"]]]);
    expect(talk.headers().map((h) => h["accept-encoding"])).toEqual(["identity", "identity"]);
    await talk.stop();
  });
});
