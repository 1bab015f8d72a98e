import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { aliceInThread, setupEngine } from "../../helpers/engine.js";

/** The model suggests a line for the server's notes in Alice's public thread of server 800 (waiting), and Bob's conversation another (a private thread suggests nothing). */
async function suggestions(setup: Awaited<ReturnType<typeof setupEngine>>) {
  const suggest = async (userId: string, content: string, answered?: "discarded") => {
    const session = await setup.engine.open({ ...aliceInThread, userId, place: { ...aliceInThread.place, visibility: "public" } });
    setup.fake.enqueue({ toolCalls: [{ name: "server_notes_suggest", arguments: { section: "Events", content } }] }, { text: "suggested" });
    const {
      suggestions: [kept],
    } = await setup.engine.turn(session.id, "note it for the server");
    if (answered) await setup.engine.serverNotesOf("800").takeSuggestion(kept!.id, answered);
  };
  await suggest("111", "- the zanzibar meetup is on Friday");
  await suggest("111", "- the zanzibar raffle", "discarded");
  await suggest("111", "- board games on Sunday");
  await suggest("222", "- zanzibar trivia night");
  return () => readFile(join(setup.home, "guilds", "800", "suggestions.json"), "utf8");
}

describe("a person's suggestions for a server's notes", () => {
  it("lose what the person forgets, waiting or answered; another person's stay", async () => {
    const setup = await setupEngine();
    const file = await suggestions(setup);
    expect(await file()).toContain("zanzibar meetup");
    await setup.engine.forget("111", "zanzibar");
    const after = await file();
    expect(after).not.toContain("zanzibar meetup");
    expect(after).not.toContain("zanzibar raffle");
    expect(after).toContain("board games on Sunday");
    expect(after).toContain("zanzibar trivia night");
  });

  it("all go when the person deletes everything", async () => {
    const setup = await setupEngine();
    const file = await suggestions(setup);
    await setup.engine.deleteEverything("111");
    const after = await file();
    expect(after).not.toContain("zanzibar meetup");
    expect(after).not.toContain("board games");
    expect(after).toContain("zanzibar trivia night");
  });
});
