import { afterEach, describe, expect, it, vi } from "vitest";
import { PERSON } from "../../src/memory/memory-file.js";
import { MemoryStore } from "../../src/memory/memory-store.js";
import { botMessages, startBot, type BotHarness } from "../helpers/bot-harness.js";
import { aliceInThread, setupEngine } from "../helpers/engine.js";

// What one message costs: the session is looked up once, and settings.json is read once a turn
// however many memory writes the turn makes (the settings travel in the tool context).
afterEach(() => {
  vi.restoreAllMocks();
});

/**
 * Counts the session store's lookups (calls through to the real store). The message's one
 * lookup is latestIn (channel → session), which reads the record with get; the turn then takes
 * the record once with get: two gets, one latestIn, no reload.
 */
function watchLookups(h: BotHarness) {
  const latestIn = vi.spyOn(h.store, "latestIn");
  const get = vi.spyOn(h.store, "get");
  const reload = vi.spyOn(h.store, "reload");
  return () => ({ latestIn: latestIn.mock.calls.length, get: get.mock.calls.length, reload: reload.mock.calls.length });
}

const settingsReads = () => vi.spyOn(MemoryStore.prototype as unknown as { settingsFromDisk(): unknown }, "settingsFromDisk");

describe("one trip per message", () => {
  it("a message in a conversation's thread looks its session up once, and a turn reads settings.json once for three memory writes", async () => {
    const h = await startBot();
    const { discord, model } = h;
    model.enqueue({ text: "Hello!" });
    const start = await discord.userSends({ channelId: discord.textChannel.id, userId: discord.alice.id, content: "hi there", mentionsBot: true });
    const thread = await discord.waitFor(() => discord.thread(start.id));
    await discord.waitFor(() => botMessages(discord, thread.id).find((m) => m.content.includes("Hello!") && m.components.length === 0));

    model.enqueue(
      {
        toolCalls: [
          { name: "memory_add", arguments: { file: "user", section: "Likes", content: "- oolong" } },
          { name: "memory_add", arguments: { file: "memory", section: "Follow-ups", content: "- ask about the tea shop" } },
          { name: "memory_add", arguments: { file: "daily", section: "Notes", content: "- talked about tea" } },
        ],
      },
      { text: "Noted, all three." },
    );
    const lookups = watchLookups(h);
    const reads = settingsReads();
    await discord.userSends({ channelId: thread.id, userId: discord.alice.id, content: "I love oolong; remind me of the tea shop" });
    await discord.waitFor(() => botMessages(discord, thread.id).find((m) => m.content.includes("Noted, all three.") && m.components.length === 0));
    expect(lookups()).toEqual({ latestIn: 1, get: 2, reload: 0 });
    expect(reads).toHaveBeenCalledTimes(1);
    expect(await h.engine.memoryOf(discord.alice.id).user.read()).toContain("- oolong");
  });

  it("opening a session reads settings.json once: for the time zone, the persona's language and the private sections of a public thread", async () => {
    const { engine } = await setupEngine();
    const memory = engine.memoryOf("111");
    await memory.user.write("## Likes\n- oolong\n\n## Health\n- allergic to kestrelnuts\n", PERSON);
    await memory.saveSettings({ timezone: "Asia/Shanghai", privateSections: ["Health"] });
    const reads = settingsReads();
    const session = await engine.open({ ...aliceInThread, place: { ...aliceInThread.place, visibility: "public" } });
    expect(reads).toHaveBeenCalledTimes(1);
    // What the one read gave reached the prompt: the person's zone, and their private section kept out.
    expect(session.systemPrompt).toContain("Asia/Shanghai");
    expect(session.systemPrompt).toContain("- oolong");
    expect(session.systemPrompt).not.toContain("kestrelnuts");
    await engine.settle();
  });

  it("a direct message looks its session up once too", async () => {
    const h = await startBot();
    const { discord, model } = h;
    const dm = discord.openDm(discord.alice.id);
    model.enqueue({ text: "Hi in DMs." });
    await discord.userSends({ channelId: dm.id, userId: discord.alice.id, content: "hello" });
    await discord.waitFor(() => botMessages(discord, dm.id).find((m) => m.content.includes("Hi in DMs.") && m.components.length === 0));
    model.enqueue({ text: "Still here." });
    const lookups = watchLookups(h);
    await discord.userSends({ channelId: dm.id, userId: discord.alice.id, content: "again" });
    await discord.waitFor(() => botMessages(discord, dm.id).find((m) => m.content.includes("Still here.") && m.components.length === 0));
    expect(lookups()).toEqual({ latestIn: 1, get: 2, reload: 0 });
  });
});
