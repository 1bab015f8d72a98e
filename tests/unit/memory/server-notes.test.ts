import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ServerNotes } from "../../../src/memory/server-notes.js";
import { makeTempHome } from "../../helpers/temp-home.js";

const GUILD = "1234567890";
const NOW = new Date("2026-12-04T10:00:00Z");

describe("a server's suggestions", () => {
  it("remember what became of each for its conversation's receipt, and drop it after 7 days", async () => {
    const notes = ServerNotes.of(await makeTempHome(), GUILD);
    const a = await notes.suggest({ userId: "7", sessionId: "s1", section: "Events", content: "- a" }, NOW);
    const b = await notes.suggest({ userId: "7", sessionId: "s1", section: "Events", content: "- b" }, new Date(NOW.getTime() + 1000));
    await notes.suggest({ userId: "7", sessionId: "s2", section: "Events", content: "- c" }, NOW);
    if (!a.ok || !b.ok) throw new Error("not kept");
    expect(await notes.takeSuggestion(a.value.id, "saved", NOW)).toMatchObject({ content: "- a" });
    // Taken once only: a second press finds nothing.
    expect(await notes.takeSuggestion(a.value.id, "discarded", NOW)).toBeUndefined();
    expect(notes.suggestionsOf("s1", NOW).map((s) => [s.suggestion.content, s.state])).toEqual([
      ["- a", "saved"],
      ["- b", "waiting"],
    ]);
    expect(notes.suggestions(NOW).map((s) => s.content)).toEqual(["- b", "- c"]);
    expect(notes.suggestionsOf("s1", new Date(NOW.getTime() + 8 * 86_400_000))).toEqual([]);
  });

  it("read a file of the older shape (a bare list of waiting ones) and a broken one as empty", async () => {
    const home = await makeTempHome();
    const notes = ServerNotes.of(home, GUILD);
    await mkdir(join(home, "guilds", GUILD), { recursive: true });
    const old = [{ id: "x1", createdAt: NOW.toISOString(), userId: "7", section: "Rules", content: "- be kind" }, { id: 3 }];
    await writeFile(join(home, "guilds", GUILD, "suggestions.json"), JSON.stringify(old));
    expect(notes.suggestions(NOW).map((s) => s.id)).toEqual(["x1"]);
    await notes.takeSuggestion("x1", "discarded", NOW);
    expect(JSON.parse(await readFile(join(home, "guilds", GUILD, "suggestions.json"), "utf8"))).toMatchObject({
      waiting: [],
      settled: [{ id: "x1", settled: "discarded" }],
    });
    await writeFile(join(home, "guilds", GUILD, "suggestions.json"), "{not json");
    expect(notes.suggestions(NOW)).toEqual([]);
    await writeFile(join(home, "guilds", GUILD, "suggestions.json"), JSON.stringify({ waiting: "nope", settled: [{ id: "y", settled: "eaten" }] }));
    expect(notes.suggestionsOf("s1", NOW)).toEqual([]);
  });

  it("keep at most 50 waiting (5 from one person's conversations) and the newest 200 answered", async () => {
    const home = await makeTempHome();
    const notes = ServerNotes.of(home, GUILD);
    for (let i = 0; i < 5; i++) expect((await notes.suggest({ userId: "7", section: "E", content: `- ${i}` }, NOW)).ok).toBe(true);
    expect(await notes.suggest({ userId: "7", section: "E", content: "- 6" }, NOW)).toMatchObject({
      ok: false,
      error: expect.stringMatching(/5 suggestions from conversations with this person/),
    });
    for (let i = 0; i < 45; i++) await notes.suggest({ userId: String(100 + i), section: "E", content: `- ${i}` }, NOW);
    expect(await notes.suggest({ userId: "999", section: "E", content: "- one more" }, NOW)).toMatchObject({
      ok: false,
      error: expect.stringMatching(/50 suggestions already wait/),
    });
    for (let i = 0; i < 205; i++) {
      const [first] = notes.suggestions(NOW);
      if (first) await notes.takeSuggestion(first.id, "discarded", NOW);
      await notes.suggest({ userId: String(1000 + i), sessionId: "many", section: "E", content: `- later ${i}` }, NOW);
    }
    // 205 answered: the oldest 5 are dropped.
    const file = JSON.parse(await readFile(join(home, "guilds", GUILD, "suggestions.json"), "utf8"));
    expect(file.settled).toHaveLength(200);
    expect(file.waiting).toHaveLength(50);
    expect(file.settled[0].userId).toBe("100");
    expect(
      notes
        .suggestionsOf("many", NOW)
        .filter((s) => s.state === "discarded")
        .at(-1)!.suggestion.content,
    ).toBe("- later 154");
  });

  it("refuse a server id that is not a snowflake before any path is built", async () => {
    expect(() => ServerNotes.of("/tmp", "../../etc")).toThrow(/not a Discord server id/);
  });
});
