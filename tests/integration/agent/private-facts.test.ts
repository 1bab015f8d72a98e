import { afterEach, describe, expect, it } from "vitest";
import { carriesPrivateFacts } from "../../../src/engine/tools/private-facts.js";
import type { ConversationLog } from "../../../src/memory/conversation-log.js";
import { PERSON } from "../../../src/memory/memory-file.js";
import { MemoryStore } from "../../../src/memory/memory-store.js";
import { Recall } from "../../../src/memory/recall/recall.js";
import { makeTempHome } from "../../helpers/temp-home.js";

const recalls: Recall[] = [];
afterEach(async () => {
  for (const recall of recalls.splice(0)) await recall.close();
});

const HERE = "1234567";
const ELSEWHERE = "7654321";

function conversation(title: string, where: { discord: string; visibility: ConversationLog["visibility"] }, said: string): ConversationLog {
  return {
    title,
    place: "Discord",
    opened: "2026-10-02 10:00 (UTC)",
    closed: "2026-10-02 10:30 (UTC)",
    sessionId: title,
    ...where,
    messages: [
      { speaker: "person", name: "Alice", text: said },
      { speaker: "assistant", name: "Assistant", text: "Noted." },
    ],
  };
}

async function alice(): Promise<MemoryStore> {
  const recall = new Recall({ debounceMs: 10 });
  recalls.push(recall);
  const memory = MemoryStore.forUser(await makeTempHome(), "111", { recall });
  await memory.user.write("## Likes\n- oolong\n\n## Health\n- allergic to kestrelnuts\n", PERSON);
  await memory.markPrivate("Health", true);
  await memory.writeConversation(
    "2026-10-02-meds-aaaaaaaa.md",
    conversation("meds", { discord: "@me", visibility: "direct" }, "I take lamotrigine for my epilepsy."),
  );
  await memory.writeConversation(
    "2026-10-02-plans-bbbbbbbb.md",
    conversation("plans", { discord: "@me", visibility: "direct" }, "Game night is every Friday in the lounge."),
  );
  await memory.writeConversation(
    "2026-10-02-server-cccccccc.md",
    conversation("server", { discord: HERE, visibility: "public" }, "Game night is every Friday in the lounge, tell everyone."),
  );
  await memory.writeConversation(
    "2026-10-02-raid-dddddddd.md",
    conversation("raid", { discord: ELSEWHERE, visibility: "public" }, "Our guild raid starts at nine on Saturday."),
  );
  return memory;
}

describe("whether a text for a server's notes says what the person keeps out of its public places", () => {
  it("is true for the facts of a private section, a DM, or another server's thread; false for what was said in public here, and for anything else", async () => {
    const memory = await alice();
    const check = (section: string, content: string) => carriesPrivateFacts(memory, { section, content }, HERE);
    expect(await check("Members", "- Alice is allergic to kestrelnuts")).toBe(true);
    expect(await check("Members", "- Alice takes lamotrigine for her epilepsy")).toBe(true);
    expect(await check("Events", "- the guild raid starts at nine on Saturday")).toBe(true);
    // Said in a DM too, but said in public here as well: the server has heard it.
    expect(await check("Events", "- game night every Friday in the lounge")).toBe(false);
    expect(await check("Rules", "- no spoilers before Monday")).toBe(false);
    // One common word said in a DM is no private fact: a line is read with its section's name.
    expect(await check("Events", "- Friday")).toBe(false);
    // A line of other facts beside a private one does not hide it.
    expect(await check("Events", "- board games on Sunday\n- Alice is allergic to kestrelnuts")).toBe(true);
    // Another server's notes: what was said in public there is theirs to hear.
    expect(await carriesPrivateFacts(memory, { section: "Events", content: "- the guild raid starts at nine on Saturday" }, ELSEWHERE)).toBe(false);
  });
});
