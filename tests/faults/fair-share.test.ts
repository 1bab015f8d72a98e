import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderConversation } from "../../src/memory/conversation-log.js";
import { componentsOf, slashOption as s, type SlashCommandOption } from "../fakes/fake-discord/index.js";
import { botMessages, startBot, type BotHarness } from "../helpers/bot-harness.js";
import { startLoopProbe } from "../helpers/loop-probe.js";
import { worstCaseBundle } from "../helpers/worst-import.js";
import { pick } from "./fault-config.js";

/**
 * Issue 16's promise that nobody can freeze the bot for everyone: while Alice does the heaviest
 * things one person can (the largest worst-case import, history and undo over it, the longest
 * search, a forget over thousands of files), Bob keeps talking in his thread. One bot, one event
 * loop, as in production. Three bounds:
 * - Bob's replies come within a second, all but one: a wait that is the bot's (a queue, a lock, a
 *   thread pool that Alice's work fills) recurs over his many turns, where one reply made slow by
 *   the OS running other processes does not (two suites at once on two cores once made one reply
 *   1,072 ms, the loop never held long). None takes three seconds.
 * - The event loop is never held half a second: the CPU time of the loop's own thread in any gap
 *   of a 5 ms timer (tests/helpers/loop-probe.ts), which other processes hardly move. This catches a
 *   stall that falls between two of Bob's messages, which his replies do not show. The fakes run
 *   on the same loop, so their work counts too: the figure can only be too high, never too low.
 * Before this, a 150 KB import froze the whole bot for 39 s.
 */

const LOOP_BOUND_MS = 500;
const REPLY_BOUND_MS = 1000;
const SLOWEST_REPLY_MS = 3000;

async function memory(h: BotHarness, userId: string, sub: string, options: SlashCommandOption[] = []) {
  const call = h.discord.runSlashCommand({ userId, channelId: h.discord.textChannel.id, name: "memory", options: [s.subcommand(sub, options)] });
  return h.discord.waitFor(() => h.discord.interactionResponses(call.id).find((r) => r.content || r.components?.length), 120_000, `/memory ${sub}`);
}

async function press(h: BotHarness, userId: string, reply: { messageId: string | null }, label: string, done: (content: string) => boolean) {
  const button = componentsOf(reply as Parameters<typeof componentsOf>[0]).find((b) => b.label === label);
  expect(button, `a ${label} button`).toBeDefined();
  h.discord.clickButton({ userId, messageId: reply.messageId!, customId: button!.customId! });
  return h.discord.waitFor(
    () => {
      const message = h.discord.message(reply.messageId!);
      return message && done(message.content) ? message : undefined;
    },
    180_000,
    `${label} to finish`,
  );
}

/** Earlier conversations (2,000 in the fault run), each mentioning the words Alice will forget. */
const CONVERSATIONS = pick(2000, 600);

async function seedConversations(home: string, userId: string): Promise<void> {
  const dir = join(home, "users", userId, "conversations");
  await mkdir(dir, { recursive: true });
  for (let i = 0; i < CONVERSATIONS; i++) {
    const day = `2025-${String((i % 12) + 1).padStart(2, "0")}-${String((i % 28) + 1).padStart(2, "0")}`;
    const messages = Array.from({ length: 12 }, (_, m) => ({
      speaker: m % 2 === 0 ? ("person" as const) : ("assistant" as const),
      name: m % 2 === 0 ? "Alice" : "Assistant",
      text: `${m === 4 ? "my old flat on Kestrel Lane " : ""}message ${m} of talk ${i}: ${"tea and walks ".repeat(20)}`,
    }));
    const log = { title: `talk ${i}`, place: "a DM", opened: `${day} 10:00 (UTC)`, closed: `${day} 10:30 (UTC)`, sessionId: `s${i}`, messages };
    await writeFile(join(dir, `${day}-talk-${i}-${String(i).padStart(8, "0")}.md`), renderConversation(log));
  }
}

describe("one person's heaviest requests and everyone else", () => {
  it("a worst-case import, history, undo, search and forget by one person never delay another person's replies by a second, nor hold the event loop half a second", async () => {
    const h = await startBot({ env: { PERSON_MESSAGES_PER_MINUTE: "1000" } });
    const { discord, model } = h;
    const alice = discord.alice.id;
    const bob = discord.bob.id;
    let pings = 0;
    model.setFallback((req) => (req.body.tools ? { text: `pong ${++pings}` } : { text: "summary" }));
    await seedConversations(h.home, alice);

    const start = await discord.userSends({ channelId: discord.textChannel.id, userId: bob, content: "hello", mentionsBot: true });
    await discord.waitFor(() => botMessages(discord, start.id)[0], 10_000, "Bob's first answer");

    // Made before the timer starts: that is the uploader's work, not the bot's.
    const bundle = Buffer.from(worstCaseBundle());
    // Bob writes, waits for the answer, and writes again, for as long as Alice is busy.
    const probe = startLoopProbe();
    const latencies: number[] = [];
    let busy = true;
    const bobTalks = (async () => {
      while (busy) {
        const before = botMessages(discord, start.id).length;
        const sent = performance.now();
        await discord.userSends({ channelId: start.id, userId: bob, content: `still there? ${latencies.length}` });
        await discord.waitFor(() => botMessages(discord, start.id).length > before, 30_000, "Bob's answer");
        latencies.push(performance.now() - sent);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    })();

    const preview = await memory(h, alice, "import", [s.attachment("file", { filename: "agentkit-memory.json", data: bundle })]);
    expect(preview.content).toMatch(/would be written/);
    await press(h, alice, preview, "Import", (c) => c.startsWith("**Imported"));
    expect((await memory(h, alice, "history")).content).toMatch(/daily\/archive\/2026-01-01\.md/);
    const undo = await memory(h, alice, "undo");
    expect(undo.components?.length ?? 0).toBeGreaterThan(0);
    // The longest query the command takes, of what costs the most to search: Chinese pairs and many words.
    const query = "乌龙茶绿茶红茶 line lime entry worst 4111 ".repeat(10).slice(0, 200);
    expect((await memory(h, alice, "search", [s.string("query", query)])).content).not.toBe("");
    const forget = await memory(h, alice, "forget", [s.string("text", "Kestrel Lane")]);
    await press(h, alice, forget, "Forget", (c) => c.startsWith("Forgotten"));
    busy = false;
    await bobTalks;
    const { worstWallMs, worstCpuMs } = probe.stop();

    // Enough of Bob's turns fell within Alice's work to mean something.
    expect(latencies.length).toBeGreaterThan(10);
    const slow = latencies.filter((ms) => ms >= REPLY_BOUND_MS).length;
    const worst = Math.max(...latencies);
    const shown = `${slow} of Bob's ${latencies.length} replies took a second or more, the slowest ${Math.round(worst)} ms; the loop waited ${Math.round(worstWallMs)} ms at worst, ${Math.round(worstCpuMs)} ms of it its own thread's CPU at most`;
    expect(slow, shown).toBeLessThanOrEqual(1);
    expect(worst, shown).toBeLessThan(SLOWEST_REPLY_MS);
    expect(worstCpuMs, shown).toBeLessThan(LOOP_BOUND_MS);
  }, 600_000);
});
