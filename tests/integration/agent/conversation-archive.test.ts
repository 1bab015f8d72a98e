import { readdir, readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { MemoryStore } from "../../../src/memory/memory-store.js";
import type { SessionRecord } from "../../../src/sessions/session-record.js";
import { aliceInThread, setupEngine } from "../../helpers/engine.js";

const at = new Date("2026-12-01T23:30:00Z");

async function conversations(home: string): Promise<string[]> {
  return readdir(join(home, "users/111/conversations")).catch(() => []);
}

/** One closed conversation in which Alice mentions the book her sister recommends. */
async function talkAboutPiranesi(setup: Awaited<ReturnType<typeof setupEngine>>): Promise<void> {
  const session = await setup.engine.open(aliceInThread);
  setup.fake.enqueue({ text: "Piranesi is a wonderful choice." }, { text: "Talked about books." });
  await setup.engine.turn(session.id, "My sister says I should read Piranesi.");
  await setup.engine.close(session.id, "end");
}

describe("closing a session archives its conversation", () => {
  it("writes the person's and the assistant's words with a header, tool rounds left out and the 💾 change noted", async () => {
    const setup = await setupEngine({ clock: () => at });
    await MemoryStore.forUser(setup.home, "111").saveSettings({ timezone: "Asia/Shanghai" });
    const session = await setup.engine.open(aliceInThread);
    setup.fake.enqueue(
      { text: "Let me note that.", toolCalls: [{ name: "memory_add", arguments: { file: "user", section: "Likes", content: "- oolong" } }] },
      { text: "Saved: you like oolong." },
      { text: "Good night!" },
      { text: "Alice likes oolong." },
    );
    await setup.engine.turn(session.id, "I like oolong tea.");
    await setup.engine.turn(session.id, "## Night\nGood night");
    expect(await setup.engine.close(session.id, "end")).toBe("closed");
    const files = await conversations(setup.home);
    expect(files).toEqual([`2026-12-02-tea-talk-${session.id.slice(0, 8)}.md`]);
    expect(await readFile(join(setup.home, "users/111/conversations", files[0]!), "utf8")).toBe(
      [
        "# tea talk",
        "",
        "- place: thread tea talk in #general",
        "- opened: 2026-12-02 07:30 (Asia/Shanghai)",
        "- closed: 2026-12-02 07:30 (Asia/Shanghai)",
        `- session: ${session.id}`,
        "- discord: 800",
        "- visibility: private",
        "- parts: kept",
        "",
        "## 🧑 Alice",
        "I like oolong tea.",
        "",
        "## 🤖 Assistant",
        "Let me note that.",
        "",
        "Saved: you like oolong.",
        "",
        "-# 💾 saved to USER.md › Likes",
        "",
        "## 🧑 Alice",
        "\\## Night",
        "Good night",
        "",
        "## 🤖 Assistant",
        "Good night!",
        "",
      ].join("\n"),
    );
  });

  it("writes nothing for a session without an exchange", async () => {
    const setup = await setupEngine({ clock: () => at });
    const session = await setup.engine.open(aliceInThread);
    await setup.engine.close(session.id, "end");
    expect(await conversations(setup.home)).toEqual([]);
  });

  /** A session whose close waits for the model (the summary request fails). */
  async function pendingClose(setup: Awaited<ReturnType<typeof setupEngine>>) {
    const session = await setup.engine.open(aliceInThread);
    setup.fake.enqueue({ text: "Hi!" }, { error: { status: 500 } });
    await setup.engine.turn(session.id, "hello");
    expect(await setup.engine.close(session.id, "end")).toBe("pending-summary");
    return session;
  }

  it("writes the file once when the close is retried after a restart (summary pending while the model was down)", async () => {
    const setup = await setupEngine({ clock: () => at });
    await pendingClose(setup);
    const [first] = await conversations(setup.home);
    const text = await readFile(join(setup.home, "users/111/conversations", first!), "utf8");
    const restarted = await setup.reopen();
    setup.fake.enqueue({ text: "They said hello." });
    expect(await restarted.retryPendingCloses()).toEqual({ closed: 1, pending: 0 });
    expect(await conversations(setup.home)).toEqual([first]);
    expect(await readFile(join(setup.home, "users/111/conversations", first!), "utf8")).toBe(text);
  });

  it("keeps one file when the person changes time zone before a pending close is retried", async () => {
    const setup = await setupEngine({ clock: () => at });
    const session = await pendingClose(setup);
    const first = await conversations(setup.home);
    expect(first).toEqual([`2026-12-01-tea-talk-${session.id.slice(0, 8)}.md`]);
    // 23:30 UTC is already the next day in Shanghai.
    await MemoryStore.forUser(setup.home, "111").saveSettings({ timezone: "Asia/Shanghai" });
    setup.fake.enqueue({ text: "They said hello." });
    expect(await setup.engine.retryPendingCloses()).toEqual({ closed: 1, pending: 0 });
    expect(await conversations(setup.home)).toEqual(first);
  });

  it("makes a closed conversation searchable within moments of its close", async () => {
    const setup = await setupEngine({ clock: () => at });
    await talkAboutPiranesi(setup);
    const started = Date.now();
    await setup.engine.settle();
    const hits = await MemoryStore.forUser(setup.home, "111", { recall: setup.recall }).search("Piranesi");
    expect(Date.now() - started).toBeLessThan(3000);
    expect(hits.map((h) => [h.source, h.text])).toEqual(
      expect.arrayContaining([
        ["conversation", "Alice: My sister says I should read Piranesi."],
        ["conversation", "Assistant: Piranesi is a wonderful choice."],
      ]),
    );
  });
});

describe("memory_search in a later session", () => {
  it("lets the model find an archived conversation through the agent loop", async () => {
    const setup = await setupEngine({ clock: () => at });
    await talkAboutPiranesi(setup);
    await setup.engine.settle();
    const later = await setup.engine.open({ ...aliceInThread, title: "later" });
    setup.fake.enqueue({ toolCalls: [{ name: "memory_search", arguments: { query: "sister read" } }] }, { text: "Your sister suggested Piranesi." });
    const result = await setup.engine.turn(later.id, "What did my sister want me to read?");
    expect(result.text).toBe("Your sister suggested Piranesi.");
    expect(result.changes).toEqual([]);
    const toolMessage = setup.fake.requests.at(-1)!.body.messages.at(-1)!;
    expect(toolMessage.role).toBe("tool");
    const answer = JSON.parse(toolMessage.content as string) as { results: { source: string; text: string }[] };
    expect(answer.results[0]).toMatchObject({ source: "conversation", text: "Alice: My sister says I should read Piranesi." });
    expect(setup.fake.requests.at(-1)!.body.tools?.map((t) => (t as { function: { name: string } }).function.name)).toContain("memory_search");
  });
});

describe("sessions closed before conversations were archived", () => {
  async function closedEarlier(setup: Awaited<ReturnType<typeof setupEngine>>, title: string): Promise<SessionRecord> {
    const record: SessionRecord = {
      id: `0000000${title.length}-old-${title}`,
      userId: "111",
      displayName: "Alice",
      locale: "en-US",
      title,
      channel: aliceInThread.place,
      systemPrompt: "old",
      messages: [
        { role: "user", content: `Tell me about ${title}` },
        { role: "assistant", content: `${title} is great.` },
      ],
      status: "closed",
      openedAt: "2026-11-20T10:00:00Z",
      lastActivityAt: "2026-11-20T10:05:00Z",
      closeRequestedAt: "2026-11-20T10:06:00Z",
      closedAt: "2026-11-20T10:06:01Z",
      summary: `About ${title}.`,
      usage: [],
    };
    await setup.store.save(record);
    return record;
  }

  it("are written out once at start-up, and a deleted one is not brought back", async () => {
    const setup = await setupEngine({ clock: () => at });
    await closedEarlier(setup, "kites");
    await closedEarlier(setup, "boats");
    const empty = await closedEarlier(setup, "nothing");
    empty.messages = [];
    await setup.store.save(empty);
    expect(await setup.engine.archiveEarlierConversations()).toBe(2);
    const files = await conversations(setup.home);
    expect(files.sort()).toEqual(["2026-11-20-boats-00000005.md", "2026-11-20-kites-00000005.md"]);
    expect(await readFile(join(setup.home, "users/111/conversations", files[1]!), "utf8")).toContain("## 🧑 Alice\nTell me about kites\n");
    await rm(join(setup.home, "users/111/conversations", files[0]!));
    const restarted = await setup.reopen();
    expect(await restarted.archiveEarlierConversations()).toBe(0);
    expect(await conversations(setup.home)).toEqual([files[1]]);
  });
});
