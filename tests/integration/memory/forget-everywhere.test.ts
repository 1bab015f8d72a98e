import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { forgetUnderLock, planForget } from "../../../src/memory/forget.js";
import { PERSON } from "../../../src/memory/memory-file.js";
import { MemoryStore } from "../../../src/memory/memory-store.js";
import { sectionKey } from "../../../src/memory/visibility.js";
import { makeTempHome } from "../../helpers/temp-home.js";

const open = async () => MemoryStore.forUser(await makeTempHome(), "123", { defaultTimeZone: "UTC" });

/** Every file of the person's folder that still holds the words, case folded. */
async function stillHolding(memory: MemoryStore, words: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) await walk(path);
      else if ((await readFile(path, "utf8")).toLowerCase().includes(words.toLowerCase())) found.push(path.slice(memory.dir.length + 1));
    }
  };
  await walk(memory.dir);
  return found;
}

describe("forget leaves the words nowhere in the person's folder", () => {
  it("takes them out of history's neighbour names too, and the preview counts what the forget rewrites", async () => {
    const memory = await open();
    await memory.user.write("## Kestrel Lane flat\n- moving in May\n## Pets\n- a cat\n", PERSON);
    await memory.user.remove("Pets", PERSON);
    const preview = await planForget(memory, "Kestrel");
    const outcome = await memory.serialize(() => forgetUnderLock(memory, "Kestrel"));
    expect(outcome.plan.historyEntries).toBe(preview.historyEntries);
    expect(await stillHolding(memory, "Kestrel")).toEqual([]);
  });

  it("takes out a message whose speaker, replied-to author or shared file names them, and the private mark of that name", async () => {
    const memory = await open();
    await memory.user.add("Visits", "- every Tuesday", PERSON);
    await memory.markPrivate("Dr Kestrel visits", true);
    await memory.markPrivate("Health", true);
    await memory.writeConversation("2026-12-01-flat-aaaaaaaa.md", {
      title: "flat",
      place: "DM",
      opened: "",
      closed: "",
      sessionId: "aaaaaaaa",
      partsKept: true,
      messages: [
        {
          speaker: "person",
          name: "Mei",
          text: "can you read this?",
          parts: [
            { origin: "typed", text: "can you read this?" },
            { origin: "file", name: "dr-kestrel-referral.pdf", text: "(scanned page)" },
          ],
        },
        {
          speaker: "person",
          name: "Dr Kestrel",
          guest: true,
          text: "hello, I am her doctor",
          parts: [{ origin: "typed", author: "Dr Kestrel", text: "hello, I am her doctor" }],
        },
        {
          speaker: "person",
          name: "Mei",
          text: "what did he mean?",
          parts: [
            { origin: "reply", author: "Dr Kestrel", text: "the new dose should help" },
            { origin: "typed", text: "what did he mean?" },
          ],
        },
        { speaker: "person", name: "Mei", text: "thanks, all clear", parts: [{ origin: "typed", text: "thanks, all clear" }] },
        { speaker: "assistant", name: "Assistant", text: "Glad to help." },
      ],
    });
    const preview = await planForget(memory, "kestrel");
    expect(preview.messages).toBe(3);
    await memory.serialize(() => forgetUnderLock(memory, "kestrel"));
    expect(await stillHolding(memory, "kestrel")).toEqual([]);
    const [name] = await readdir(memory.conversationsDir);
    const text = await readFile(join(memory.conversationsDir, name!), "utf8");
    expect(text).toContain("thanks, all clear");
    expect(text).toContain("Glad to help.");
    // The other mark stays.
    expect(memory.readSettings().privateSections).toEqual(["health"]);
  });
});

/** A DM conversation of these messages, then a forget of `words`: the conversation's file as it stays. */
async function dmAfterForget(messages: { speaker: "person" | "assistant"; name: string; text: string }[], words: string): Promise<string> {
  const memory = await open();
  await memory.writeConversation("2026-12-01-tea-bbbbbbbb.md", { title: "tea", place: "DM", opened: "", closed: "", sessionId: "bbbbbbbb", messages });
  await memory.serialize(() => forgetUnderLock(memory, words));
  const [name] = await readdir(memory.conversationsDir);
  return readFile(join(memory.conversationsDir, name!), "utf8");
}

describe("forget of the owner's own name", () => {
  it("takes the name out of their messages and keeps what they said", async () => {
    const text = await dmAfterForget(
      [
        { speaker: "person", name: "Meiling", text: "oolong please" },
        { speaker: "assistant", name: "Assistant", text: "Oolong it is." },
      ],
      "meiling",
    );
    expect(text.toLowerCase()).not.toContain("meiling");
    expect(text).toContain("oolong please");
    expect(text).toContain("Oolong it is.");
  });
});

describe("forget and private marks", () => {
  it("counts a mark that only its name holds the words of, and takes it away", async () => {
    const memory = await open();
    // Marked ahead of the section, as /memory private allows.
    await memory.markPrivate("Dr Kestrel visits", true);
    const preview = await planForget(memory, "kestrel");
    expect(preview.marks).toBe(1);
    await memory.serialize(() => forgetUnderLock(memory, "kestrel"));
    expect(memory.readSettings().privateSections).toEqual([]);
  });

  it("keeps the mark of a section that stays, however the words reach the mark", async () => {
    const memory = await open();
    // The key's "\u0041" reads as "a" when compared; the heading's "\U0041" does not.
    await memory.user.write("## \\U0041BC notes\n- my diagnosis\n## Likes\n- tea\n", PERSON);
    await memory.markPrivate("\\U0041BC notes", true);
    await memory.serialize(() => forgetUnderLock(memory, "abc notes"));
    expect(await memory.user.read()).toContain("my diagnosis");
    expect(memory.readSettings().privateSections).toHaveLength(1);
  });

  it("matches the words against a long mark's name, not its hash, and takes the mark of a section that goes whatever the cut left", async () => {
    const memory = await open();
    // A long name whose key's hash holds "ab": forgetting "ab" must not take it.
    let i = 0;
    while (
      !sectionKey(`${"ﷺ".repeat(12)} n${i}`)
        .slice(-16)
        .includes("ab")
    )
      i++;
    await memory.markPrivate(`${"ﷺ".repeat(12)} n${i}`, true);
    // One whose cut ends in a blank, so its key is shorter than 200: still matched by its name only.
    let j = 0;
    while (
      !sectionKey(`${"x".repeat(181)} ${j}${"y".repeat(50)}`)
        .slice(-16)
        .includes("ab")
    )
      j++;
    expect(sectionKey(`${"x".repeat(181)} ${j}${"y".repeat(50)}`).length).toBeLessThan(200);
    await memory.markPrivate(`${"x".repeat(181)} ${j}${"y".repeat(50)}`, true);
    // The words past the cut: the section goes, and its mark with it.
    const long = `${"ﷺ".repeat(12)} Dr Kestrel`;
    await memory.user.write(`## ${long}\n- visits\n## Likes\n- tea\n`, PERSON);
    await memory.markPrivate(long, true);
    await memory.serialize(() => forgetUnderLock(memory, "ab"));
    expect(memory.readSettings().privateSections).toHaveLength(3);
    await memory.serialize(() => forgetUnderLock(memory, "kestrel"));
    expect(memory.readSettings().privateSections).toEqual([sectionKey(`${"ﷺ".repeat(12)} n${i}`), sectionKey(`${"x".repeat(181)} ${j}${"y".repeat(50)}`)]);
  });

  it("never renames the assistant, whatever the words", async () => {
    const text = await dmAfterForget(
      [
        { speaker: "person", name: "Mei", text: "hello Stan" },
        { speaker: "assistant", name: "Assistant", text: "Hello!" },
      ],
      "stan",
    );
    expect(text).toContain("Assistant");
  });
});
