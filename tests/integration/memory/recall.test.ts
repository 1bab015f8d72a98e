import fc from "fast-check";
import { mkdir, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { renderConversation, type ConversationMessage } from "../../../src/memory/conversation-log.js";
import { Recall, type RecallOptions } from "../../../src/memory/recall/recall.js";
import { SqliteDb } from "../../../src/lib/sqlite-db.js";
import type { Embedder } from "../../../src/memory/recall/vectors.js";
import { startLoopProbe } from "../../helpers/loop-probe.js";
import { makeTempHome } from "../../helpers/temp-home.js";

const recalls: Recall[] = [];
afterEach(async () => {
  for (const recall of recalls.splice(0)) await recall.close();
});

function newRecall(options: RecallOptions = {}): Recall {
  const recall = new Recall({ debounceMs: 10, ...options });
  recalls.push(recall);
  return recall;
}

interface Person {
  dir: string;
  indexPath: string;
}

async function person(): Promise<Person> {
  const home = await makeTempHome();
  const dir = join(home, "users", "111");
  await mkdir(join(dir, "conversations"), { recursive: true });
  return { dir, indexPath: join(home, "index", "111.sqlite") };
}

async function writeConversation({ dir }: Person, name: string, title: string, texts: string[]): Promise<void> {
  const messages: ConversationMessage[] = texts.map((text, i) =>
    i % 2 === 0 ? { speaker: "person", name: "Alice", text } : { speaker: "assistant", name: "Assistant", text },
  );
  const log = { title, place: "a terminal", opened: "2026-10-02 10:00 (UTC)", closed: "2026-10-02 10:30 (UTC)", sessionId: name, messages };
  await writeFile(join(dir, "conversations", name), renderConversation(log));
}

const ZONE = "UTC";

describe("Recall", () => {
  it("indexes an 800,000-character message in parts, handing the loop back, and finds a word from its end", async () => {
    const p = await person();
    const words = Array.from({ length: 90_000 }, (_, i) => `word${i % 977} 乌龙茶${i % 13}`).join(" ");
    await writeConversation(p, "2026-10-02-paste-bbbbbbbb.md", "paste", [`${words.slice(0, 800_000)} zanzibar`, "That is a long paste."]);
    const recall = newRecall();
    const probe = startLoopProbe();
    const hits = await recall.search(p, ZONE, "zanzibar");
    const { worstCpuMs } = probe.stop();
    expect(hits[0]).toMatchObject({ source: "conversation", title: "paste" });
    expect(hits[0]!.text).toContain("zanzibar");
    // Tokenising it whole held the loop for most of a second; a part takes a few milliseconds.
    expect(worstCpuMs).toBeLessThan(300);
  }, 60_000);

  it("ranks what the person said above the assistant's acknowledgement of it, however short the acknowledgement", async () => {
    const p = await person();
    await writeConversation(p, "2026-10-02-tea-aaaaaaaa.md", "tea", [
      "By the way, I have really come to love oolong tea in the afternoon, with a good book and the window open",
      "Noted — oolong. I'll remember that.",
      "And my sister Clara prefers jasmine tea",
      "Clara likes jasmine: got it.",
    ]);
    const hits = await newRecall().search(p, ZONE, "oolong");
    expect(hits[0]!.text).toMatch(/^Alice: By the way, I have really come to love oolong/);
    expect(hits[1]!.text).toMatch(/^Assistant: Noted — oolong/);
    const jasmine = await newRecall().search(p, ZONE, "Clara jasmine");
    expect(jasmine[0]!.text).toMatch(/^Alice: And my sister Clara/);
  });

  it("finds messages of archived conversations, daily logs (archive included) and memory sections", async () => {
    const p = await person();
    await writeConversation(p, "2026-10-02-books-aaaaaaaa.md", "books", [
      "My sister keeps telling me to read Piranesi by Susanna Clarke.",
      "It's a strange, beautiful novel set in an endless house.",
    ]);
    await mkdir(join(p.dir, "daily", "archive"), { recursive: true });
    await writeFile(join(p.dir, "daily", "archive", "2026-09-01.md"), "## 09:30 · dentist\nAlice had a dentist appointment with Dr. Okafor.\n");
    await writeFile(join(p.dir, "USER.md"), "## Preferences\n- Drinks oolong, no sugar\n");
    const recall = newRecall();
    const [book] = await recall.search(p, ZONE, "Piranesi");
    expect(book).toMatchObject({
      source: "conversation",
      date: "2026-10-02",
      title: "books",
      text: "Alice: My sister keeps telling me to read Piranesi by Susanna Clarke.",
      file: "conversations/2026-10-02-books-aaaaaaaa.md",
      ord: 0,
    });
    expect(book!.score).toBeGreaterThan(0);
    expect((await recall.search(p, ZONE, "dentist"))[0]).toMatchObject({ source: "daily", date: "2026-09-01", title: "09:30 · dentist" });
    const today = new Date().toISOString().slice(0, 10);
    expect((await recall.search(p, ZONE, "oolong"))[0]).toMatchObject({ source: "user", title: "Preferences", text: "- Drinks oolong, no sugar", date: today });
  });

  it("matches other word forms (stemming) and finds a reply by the words of its question (context)", async () => {
    const p = await person();
    await writeConversation(p, "2026-03-01-plans-bbbbbbbb.md", "plans", [
      "Can you recommend a quiet place to study near the river?",
      "Try the Lantern Reading Room on Quay Street.",
      "I went running yesterday.",
      "Nice!",
    ]);
    const recall = newRecall();
    const stemmed = await recall.search(p, ZONE, "recommendations");
    expect(stemmed[0]?.text).toContain("recommend a quiet place");
    const runs = await recall.search(p, ZONE, "runs");
    expect(runs[0]?.text).toContain("I went running");
    // The answer holds none of the question's words; its neighbour does.
    const place = await recall.search(p, ZONE, "quiet study place");
    expect(place.map((h) => h.text)).toContain("Assistant: Try the Lantern Reading Room on Quay Street.");
  });

  it("finds a Chinese message by a two-character word inside a longer run", async () => {
    const p = await person();
    await writeConversation(p, "2026-05-01-tea-cccccccc.md", "茶", ["我最喜欢乌龙茶，不加糖。", "好的，记住了。"]);
    const recall = newRecall();
    const hits = await recall.search(p, ZONE, "乌龙");
    expect(hits[0]?.text).toBe("Alice: 我最喜欢乌龙茶，不加糖。");
    expect((await recall.search(p, ZONE, "你还记得我喜欢喝什么茶吗？"))[0]?.text).toBe("Alice: 我最喜欢乌龙茶，不加糖。");
  });

  it("puts the newer of two equally good matches first", async () => {
    const p = await person();
    await writeConversation(p, "2026-01-01-a-dddddddd.md", "a", ["Parking at the office is awful.", "Sorry to hear."]);
    await writeConversation(p, "2026-06-01-b-eeeeeeee.md", "a", ["Parking at the office is awful.", "Sorry to hear."]);
    // Enough other text that "parking" is a rare word, as it is in a real history.
    for (let i = 0; i < 6; i++) await writeConversation(p, `2026-02-0${i + 1}-f-${i}0000000.md`, "f", [`Lunch ${i} was fine.`, "Good."]);
    const hits = (await newRecall().search(p, ZONE, "parking")).filter((h) => h.text.startsWith("Alice"));
    expect(hits.map((h) => h.date)).toEqual(["2026-06-01", "2026-01-01"]);
  });

  it("accepts any text as a query: FTS5 syntax is plain text, never an error", async () => {
    const p = await person();
    await writeConversation(p, "2026-05-01-x-ffffffff.md", "x", ['He said "AND" (twice) * OR NOT near: NEAR(a b)', "ok"]);
    const recall = newRecall();
    expect((await recall.search(p, ZONE, '"AND" (twice)'))[0]?.text).toContain('He said "AND"');
    for (const query of ['"', "*", "AND", "(", ")", "OR OR", "NEAR(", "a:b", "^x", "-", "'", "\\", "", "   "]) {
      await expect(recall.search(p, ZONE, query)).resolves.toBeInstanceOf(Array);
    }
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 40 }), async (query) => {
        await expect(recall.search(p, ZONE, query)).resolves.toBeInstanceOf(Array);
      }),
      { numRuns: process.env.FAULTS_FULL ? 2000 : 150 },
    );
  });

  it("follows writes: a new file after touch, a changed one, a removed one", async () => {
    const p = await person();
    const recall = newRecall();
    expect(await recall.search(p, ZONE, "kayak")).toEqual([]);
    await writeConversation(p, "2026-07-01-trip-11111111.md", "trip", ["We rented a kayak on the lake.", "Fun!"]);
    recall.touch(p, ZONE);
    await recall.settle();
    expect((await recall.search(p, ZONE, "kayak"))[0]?.date).toBe("2026-07-01");
    await writeFile(join(p.dir, "USER.md"), "## Hobbies\n- kayaking\n");
    recall.touch(p, ZONE);
    await recall.settle();
    expect(new Set((await recall.search(p, ZONE, "kayak")).map((h) => h.source))).toEqual(new Set(["conversation", "user"]));
    await writeFile(join(p.dir, "USER.md"), "## Hobbies\n- chess\n");
    await rm(join(p.dir, "conversations", "2026-07-01-trip-11111111.md"));
    recall.touch(p, ZONE);
    await recall.settle();
    expect(await recall.search(p, ZONE, "kayak")).toEqual([]);
    expect((await recall.search(p, ZONE, "chess"))[0]?.source).toBe("user");
  });

  it("sees hand edits at the next search once the index is no longer fresh", async () => {
    const p = await person();
    const recall = newRecall({ freshMs: 0 });
    expect(await recall.search(p, ZONE, "violin")).toEqual([]);
    await writeFile(join(p.dir, "MEMORY.md"), "## Follow-ups\n- ask about the violin recital\n");
    expect((await recall.search(p, ZONE, "violin"))[0]?.source).toBe("memory");
  });

  it("sees what another process indexed: a conversation it added and that is then deleted by hand is gone here too", async () => {
    const p = await person();
    const here = newRecall({ freshMs: 0 });
    const there = newRecall();
    await writeConversation(p, "2026-07-02-lake-22222222.md", "lake", ["The canoe was red.", "Nice."]);
    expect((await here.search(p, ZONE, "canoe"))[0]?.date).toBe("2026-07-02");
    await writeConversation(p, "2026-07-03-boat-33333333.md", "boat", ["We painted the kayak blue.", "Lovely."]);
    there.touch(p, ZONE);
    await there.settle();
    await rm(join(p.dir, "conversations", "2026-07-03-boat-33333333.md"));
    expect(await here.search(p, ZONE, "kayak")).toEqual([]);
    expect((await here.search(p, ZONE, "canoe"))[0]?.date).toBe("2026-07-02");
  });

  it("gives the same results after a reindex, and after the index file is deleted", async () => {
    const p = await person();
    for (let i = 0; i < 12; i++) {
      await writeConversation(p, `2026-0${(i % 9) + 1}-1${i % 10}-c${i}-${String(i).padStart(8, "0")}.md`, `chat ${i}`, [
        `Day ${i}: we talked about ${i % 2 ? "gardening tomatoes" : "baking sourdough"} and the weather.`,
        `Reply ${i} about ${i % 3 ? "tomatoes" : "bread"}.`,
      ]);
    }
    const recall = newRecall();
    const queries = ["tomato garden", "sourdough bread", "weather", "reply"];
    const before = await Promise.all(queries.map((q) => recall.search(p, ZONE, q)));
    await recall.reindex(p, ZONE);
    expect(await Promise.all(queries.map((q) => recall.search(p, ZONE, q)))).toEqual(before);
    await recall.close();
    recalls.splice(recalls.indexOf(recall), 1);
    for (const suffix of ["", "-wal", "-shm"]) await rm(`${p.indexPath}${suffix}`, { force: true });
    const fresh = newRecall();
    expect(await Promise.all(queries.map((q) => fresh.search(p, ZONE, q)))).toEqual(before);
    expect((await stat(p.indexPath)).size).toBeGreaterThan(0);
  });

  it("reads an index of the previous version again from the files, and marks which server's public places may find a message", async () => {
    const p = await person();
    const log = (visibility?: "public" | "direct") => ({
      title: "picnic",
      place: "somewhere",
      opened: "2026-07-04 10:00 (UTC)",
      closed: "2026-07-04 10:30 (UTC)",
      sessionId: "s",
      discord: visibility === "direct" ? "@me" : "1234567",
      ...(visibility ? { visibility } : {}),
      messages: [{ speaker: "person" as const, name: "Alice", text: "Bring the lemonade." }],
    });
    await writeFile(join(p.dir, "conversations", "2026-07-04-picnic-44444444.md"), renderConversation(log("public")));
    await writeFile(join(p.dir, "conversations", "2026-07-05-picnic-55555555.md"), renderConversation(log("direct")));
    await writeFile(join(p.dir, "conversations", "2026-07-06-picnic-66666666.md"), renderConversation(log()));
    const first = newRecall();
    await first.search(p, ZONE, "lemonade");
    await first.close();
    recalls.splice(recalls.indexOf(first), 1);
    // As version 3 left it: public or not, whichever the server.
    const old = await SqliteDb.open(p.indexPath);
    await old.exec(
      "ALTER TABLE units DROP COLUMN shared; ALTER TABLE units ADD COLUMN shared INTEGER NOT NULL DEFAULT 1; UPDATE meta SET value = '3' WHERE key = 'schema';",
    );
    await old.close();
    const hits = await newRecall().search(p, ZONE, "lemonade");
    expect(hits.map((h) => [h.date, h.sharedIn ?? "none"]).sort()).toEqual([
      ["2026-07-04", "1234567"],
      ["2026-07-05", "none"],
      // A file that does not say where it was held (older, imported) counts as private.
      ["2026-07-06", "none"],
    ]);
  });
});

/** Words share a dimension with their synonyms: enough to tell semantic from keyword matches. */
function synonymEmbedder(calls: string[][], fail = false): Embedder {
  const groups = [
    ["beverage", "tea", "oolong", "drink"],
    ["automobile", "car", "vehicle"],
    ["weather", "rain"],
  ];
  return {
    model: "test-embedding",
    async embed(texts) {
      calls.push(texts);
      if (fail) throw new Error("embeddings server down");
      return texts.map((text) => {
        const words = text.toLowerCase().split(/\W+/);
        return groups.map((group) => words.filter((w) => group.includes(w)).length);
      });
    },
  };
}

describe("Recall with embeddings", () => {
  it("adds semantic matches that share no word with the query, merged with the keyword ranking", async () => {
    const p = await person();
    await writeConversation(p, "2026-05-01-tea-22222222.md", "afternoon", ["I had oolong this afternoon.", "Lovely."]);
    await writeConversation(p, "2026-05-02-car-33333333.md", "garage", ["My car needs new brakes, a beverage would help.", "Ouch."]);
    const calls: string[][] = [];
    const keywordOnly = newRecall();
    const keywords = (await keywordOnly.search(p, ZONE, "beverage")).map((h) => h.text);
    expect(keywords[0]).toBe("Alice: My car needs new brakes, a beverage would help.");
    expect(keywords).not.toContain("Alice: I had oolong this afternoon.");
    const recall = newRecall({ embedder: synonymEmbedder(calls) });
    recall.touch(p, ZONE);
    await recall.settle();
    expect(calls.flat().length).toBeGreaterThanOrEqual(4);
    const hits = await recall.search(p, ZONE, "beverage");
    expect(hits.map((h) => h.text)).toContain("Alice: I had oolong this afternoon.");
    expect(hits[0]!.score).toBeGreaterThan(0);
  });

  it("falls back to keywords when the embeddings call fails, and reports it", async () => {
    const p = await person();
    await writeConversation(p, "2026-05-01-tea-44444444.md", "afternoon", ["I had oolong this afternoon.", "Lovely."]);
    const errors: string[] = [];
    const recall = newRecall({ embedder: synonymEmbedder([], true), onError: (message) => errors.push(message) });
    recall.touch(p, ZONE);
    await recall.settle();
    const hits = await recall.search(p, ZONE, "oolong");
    expect(hits[0]?.text).toBe("Alice: I had oolong this afternoon.");
    expect(errors.some((e) => /embeddings failed/.test(e))).toBe(true);
  });

  it("finds nothing for a query unrelated to anything, as without embeddings", async () => {
    const p = await person();
    await writeConversation(p, "2026-05-01-tea-55555555.md", "afternoon", ["I had oolong this afternoon.", "Lovely."]);
    const recall = newRecall({ embedder: synonymEmbedder([]) });
    recall.touch(p, ZONE);
    await recall.settle();
    expect(await recall.search(p, ZONE, "quantum chromodynamics")).toEqual([]);
  });

  it("keeps every search and embedding batch working while more people than open indexes use it at once", async () => {
    const people = await Promise.all(
      Array.from({ length: 12 }, async (_, i) => {
        const home = await makeTempHome();
        const dir = join(home, "users", String(100 + i));
        await mkdir(join(dir, "conversations"), { recursive: true });
        const p = { dir, indexPath: join(home, "index", `${100 + i}.sqlite`) };
        await writeConversation(p, `2026-05-01-t-${i}0000000.md`, "tea", [`Person ${i} drinks oolong every morning.`, "Nice."]);
        return p;
      }),
    );
    const errors: unknown[] = [];
    // A slow embeddings server: searches wait on it while other people's indexes are opened.
    const slow: Embedder = {
      model: "slow",
      async embed(texts) {
        await new Promise((r) => setTimeout(r, 30));
        return synonymEmbedder([]).embed(texts);
      },
    };
    const recall = newRecall({ embedder: slow, onError: (_m, e) => errors.push(e) });
    const search = (query: string) => Promise.all(people.flatMap((p) => [recall.search(p, ZONE, query), recall.search(p, ZONE, query)]));
    const words = await search("oolong");
    expect(errors).toEqual([]);
    words.forEach((hits, i) => expect(hits[0]?.text).toBe(`Alice: Person ${Math.floor(i / 2)} drinks oolong every morning.`));
    // The vectors were made in the background meanwhile; now the semantic half finds them too.
    await recall.settle();
    const meanings = await search("beverage");
    expect(errors).toEqual([]);
    meanings.forEach((hits, i) => expect(hits[0]?.text).toBe(`Alice: Person ${Math.floor(i / 2)} drinks oolong every morning.`));
  });

  it("closes promptly with a long embedding backlog, and resumes it in the next process", async () => {
    const p = await person();
    const many = Array.from({ length: 400 }, (_, i) => `Message ${i} about tea.`);
    await writeConversation(p, "2026-05-01-long-66666666.md", "long", many);
    const calls: string[][] = [];
    const slow: Embedder = {
      model: "slow",
      async embed(texts, signal) {
        calls.push(texts);
        await new Promise((resolve, reject) => {
          const timer = setTimeout(resolve, 200);
          signal?.addEventListener("abort", () => (clearTimeout(timer), reject(new Error("aborted"))));
        });
        return texts.map(() => [1, 0]);
      },
    };
    const recall = new Recall({ embedder: slow, debounceMs: 1 });
    recall.touch(p, ZONE);
    await new Promise((r) => setTimeout(r, 300));
    const started = Date.now();
    await recall.close();
    expect(Date.now() - started).toBeLessThan(500);
    const batches = calls.length;
    expect(batches).toBeLessThan(7);
    const next = newRecall({ embedder: { model: "slow", embed: async (texts) => texts.map(() => [1, 0]) } });
    await next.update(p, ZONE);
    const { SqliteDb } = await import("../../../src/lib/sqlite-db.js");
    const db = await SqliteDb.open(p.indexPath);
    expect(await db.get("SELECT count(*) AS n FROM vectors WHERE length(vec) > 0")).toEqual({ n: 400 });
    await db.close();
  });

  it("retries embeddings by itself after the server comes back, and one refused input blocks no other", async () => {
    const p = await person();
    await writeConversation(p, "2026-05-01-a-77777777.md", "a", ["I had oolong.", "POISON input the server refuses", "A car broke down."]);
    let up = false;
    const embedded: string[] = [];
    const flaky: Embedder = {
      model: "flaky",
      async embed(texts) {
        if (!up) throw new Error("503");
        if (texts.some((t) => t.includes("POISON"))) throw new Error("400 input too long");
        embedded.push(...texts);
        return synonymEmbedder([]).embed(texts);
      },
    };
    const errors: string[] = [];
    const recall = newRecall({ embedder: flaky, embedRetryMs: 100, onError: (m) => errors.push(m) });
    recall.touch(p, ZONE);
    await recall.settle();
    expect(errors.some((e) => /tries again later/.test(e))).toBe(true);
    up = true;
    await new Promise((r) => setTimeout(r, 250));
    await recall.settle();
    expect(embedded).toEqual(expect.arrayContaining(["a\nI had oolong.", "a\nA car broke down."]));
    expect((await recall.search(p, ZONE, "automobile")).map((h) => h.text)).toContain("Alice: A car broke down.");
  });

  it("never gives a new unit the id of an old one, so a late vector cannot land on the wrong text", async () => {
    const p = await person();
    await writeConversation(p, "2026-05-01-a-88888888.md", "a", ["first", "second"]);
    const recall = newRecall();
    await recall.update(p, ZONE);
    const { SqliteDb } = await import("../../../src/lib/sqlite-db.js");
    const ids = async () => {
      const db = await SqliteDb.open(p.indexPath);
      const rows = await db.all<{ id: number }>("SELECT id FROM units ORDER BY id");
      await db.close();
      return rows.map((r) => r.id);
    };
    const before = await ids();
    await recall.reindex(p, ZONE);
    const after = await ids();
    expect(Math.min(...after)).toBeGreaterThan(Math.max(...before));
  });
});

describe("Recall results", () => {
  it("move a message up when its conversation matched elsewhere too (another message, its summary in the daily log)", async () => {
    const p = await person();
    await mkdir(join(p.dir, "daily"), { recursive: true });
    // Two messages with the same words; only the second conversation's summary speaks of the same thing.
    // Without the vote the newer of two equal matches comes first: here the other one.
    await writeConversation(p, "2026-03-02-cakes-aaaaaaaa.md", "cakes", ["The recipe needs cardamom.", "Nice."]);
    await writeConversation(p, "2026-03-01-bakery-bbbbbbbb.md", "bakery", ["The recipe needs cardamom.", "Nice."]);
    await writeFile(join(p.dir, "daily", "2026-03-01.md"), "## 10:00 · bakery\nAlice talked about a cardamom bun recipe.\n");
    for (let i = 0; i < 6; i++) await writeConversation(p, `2026-02-0${i + 1}-f-${i}0000000.md`, "f", [`Lunch ${i} was fine.`, "Good."]);
    const hits = (await newRecall().search(p, ZONE, "cardamom recipe")).filter((h) => h.source === "conversation" && h.text.startsWith("Alice"));
    expect(hits.map((h) => h.title)).toEqual(["bakery", "cakes"]);
  });

  it("give a day's summary entry's place to the conversation it sums up, and keep one that leads to no result", async () => {
    const p = await person();
    await mkdir(join(p.dir, "daily"), { recursive: true });
    await writeConversation(p, "2026-03-01-bakery-bbbbbbbb.md", "bakery", ["I tried a cardamom bun recipe.", "Nice."]);
    await writeFile(
      join(p.dir, "daily", "2026-03-01.md"),
      "## 10:00 · bakery\nAlice tried a cardamom bun recipe.\n\n## 18:00 · evening\nAlice baked cardamom bread for her neighbours.\n",
    );
    const hits = await newRecall().search(p, ZONE, "cardamom");
    // The bakery entry leads to the bakery conversation's message, which takes its place; the evening entry leads nowhere and stays.
    const found = hits.map((h) => `${h.source} ${h.title}`);
    expect(found[0]).toBe("conversation bakery");
    expect(found).toContain("daily 18:00 · evening");
    expect(found).not.toContain("daily 10:00 · bakery");
  });

  it("show a log entry that is both in the day's log and its archive once", async () => {
    const p = await person();
    await mkdir(join(p.dir, "daily", "archive"), { recursive: true });
    const entry = "## 09:30 · tea\nAlice bought oolong at Leaf & Kettle.\n";
    await writeFile(join(p.dir, "daily", "2026-05-01.md"), entry);
    await writeFile(join(p.dir, "daily", "archive", "2026-05-01.md"), entry);
    const hits = await newRecall().search(p, ZONE, "Kettle");
    expect(hits).toHaveLength(1);
  });
});

describe("Recall between dates", () => {
  async function year(): Promise<Person> {
    const p = await person();
    await mkdir(join(p.dir, "daily"), { recursive: true });
    for (const [date, where] of [
      ["2026-03-14", "Lisbon"],
      ["2026-10-02", "Kyoto"],
      ["2026-10-31", "Oslo"],
      ["2026-11-20", "Lima"],
    ] as const) {
      await writeConversation(p, `${date}-trip-${date.replaceAll("-", "")}.md`, `trip ${where}`, [`We booked the trip to ${where}.`, "Have fun!"]);
      await writeFile(join(p.dir, "daily", `${date}.md`), `## 10:00 · trip ${where}\nAlice planned a trip to ${where}.\n`);
    }
    await writeFile(join(p.dir, "USER.md"), "## Travel\n- Loves a trip anywhere\n");
    return p;
  }

  it("keeps to since and until, both inclusive, and leaves out the memory files (they have no date of their own)", async () => {
    const p = await year();
    const recall = newRecall();
    const october = await recall.search(p, ZONE, "trip", { since: "2026-10-01", until: "2026-10-31", limit: 20 });
    expect(new Set(october.map((h) => h.date))).toEqual(new Set(["2026-10-02", "2026-10-31"]));
    expect(october.map((h) => h.source)).not.toContain("user");
    expect(october.some((h) => h.source === "conversation")).toBe(true);
    const before = await recall.search(p, ZONE, "trip", { until: "2026-10-01", limit: 20 });
    expect(new Set(before.map((h) => h.date))).toEqual(new Set(["2026-03-14"]));
    const after = await recall.search(p, ZONE, "trip", { since: "2026-11-01", limit: 20 });
    expect(new Set(after.map((h) => h.date))).toEqual(new Set(["2026-11-20"]));
    // Without dates, everything, the profile included.
    expect((await recall.search(p, ZONE, "trip", { limit: 20 })).map((h) => h.source)).toContain("user");
  });

  it("ranks first the time a question names in words, and finds it outside the first candidates", async () => {
    const p = await person();
    // 300 later messages (and their replies, through their context) say "hair dye" more often than the April one: without the date it is not among the best 200.
    for (let i = 0; i < 300; i++) {
      await writeConversation(p, `2022-09-${String((i % 28) + 1).padStart(2, "0")}-h-${String(i).padStart(8, "0")}.md`, "h", [
        "hair dye hair dye hair dye",
        "ok",
      ]);
    }
    await writeConversation(p, "2022-04-15-h-aaaaaaaa.md", "h", ["Guess what, I tried a purple hair dye last week!", "Wow!"]);
    const recall = newRecall();
    const named = await recall.search(p, ZONE, "What hair dye did I try in April 2022?", { limit: 5 });
    expect(named[0]).toMatchObject({ date: "2022-04-15", text: expect.stringContaining("purple") });
    const unnamed = await recall.search(p, ZONE, "What hair dye did I try?", { limit: 50 });
    expect(unnamed.map((h) => h.date)).not.toContain("2022-04-15");
  }, 30_000);

  it("finds a rare word outside the first candidates once the dates narrow the search", async () => {
    const p = await person();
    // 300 recent messages about the word, one old: without the range the old one is not among the best 200.
    for (let i = 0; i < 150; i++) {
      await writeConversation(p, `2026-11-${String((i % 28) + 1).padStart(2, "0")}-m-${String(i).padStart(8, "0")}.md`, "m", [
        "marathon marathon training",
        "marathon!",
      ]);
    }
    await writeConversation(p, "2026-02-02-old-99999999.md", "old", ["My first marathon was a long time ago.", "Nice."]);
    const hits = await newRecall().search(p, ZONE, "marathon", { until: "2026-02-28", limit: 5 });
    expect(hits[0]).toMatchObject({ date: "2026-02-02", title: "old" });
  }, 30_000);

  it("lists the summaries of the days in the range, newest first, when the query has no words", async () => {
    const p = await year();
    const hits = await newRecall().search(p, ZONE, "", { since: "2026-10-01", until: "2026-11-30" });
    expect(hits.map((h) => [h.source, h.date, h.title])).toEqual([
      ["daily", "2026-11-20", "10:00 · trip Lima"],
      ["daily", "2026-10-31", "10:00 · trip Oslo"],
      ["daily", "2026-10-02", "10:00 · trip Kyoto"],
    ]);
    // No words and no dates: nothing, as before.
    expect(await newRecall().search(p, ZONE, "  ")).toEqual([]);
  });

  it("finds nothing when since is after until", async () => {
    const p = await year();
    expect(await newRecall().search(p, ZONE, "trip", { since: "2026-11-01", until: "2026-10-01" })).toEqual([]);
  });
});
