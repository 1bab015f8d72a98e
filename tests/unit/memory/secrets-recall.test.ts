import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { MemoryStore } from "../../../src/memory/memory-store.js";
import { Recall } from "../../../src/memory/recall/recall.js";
import { SqliteDb } from "../../../src/lib/sqlite-db.js";
import { searchResultsForModel } from "../../../src/engine/tools/search-results.js";
import { makeTempHome } from "../../helpers/temp-home.js";

const key = ["sk-", "proj-", "Zq3Wm8Kp2Lr7Tn4Vb9Xc1Hd6Jf0Gs5Ya2Ue8IoP4aS7dF1gH"].join("");
const tail = key.slice(-16);

/** A conversation file as it was written before secrets were masked (or as a person may edit it). */
const conversation = [
  "# keys",
  "",
  "- place: a terminal",
  "- opened: 2026-10-02 10:00 (UTC)",
  "- closed: 2026-10-02 10:05 (UTC)",
  "- session: 3f2a9c1b",
  "",
  "## 🧑 Alice",
  `my OpenAI key is ${key}`,
  "",
  "## 🤖 Assistant",
  "Noted that you use OpenAI.",
  "",
].join("\n");

const recalls: Recall[] = [];
afterEach(async () => {
  for (const recall of recalls.splice(0)) await recall.close();
});

async function setup() {
  const home = await makeTempHome();
  const recall = new Recall({ debounceMs: 10 });
  recalls.push(recall);
  const store = MemoryStore.forUser(home, "42", { recall });
  await mkdir(join(store.dir, "conversations"), { recursive: true });
  await writeFile(join(store.dir, "conversations", "2026-10-02-keys-3f2a9c1b.md"), conversation);
  return { home, recall, store };
}

/** Every byte of the index files, as text, lower case (FTS5 keeps tokens in lower case). */
async function indexBytes(store: MemoryStore): Promise<string> {
  const parts = await Promise.all(["", "-wal"].map((suffix) => readFile(`${store.indexPath}${suffix}`, "latin1").catch(() => "")));
  return parts.join("").toLowerCase();
}

describe("the recall index holds no secret", () => {
  it("indexes a conversation written before secrets were masked with the secret masked: search shows the placeholder and cannot find the key", async () => {
    const { recall, store } = await setup();
    const hits = await store.search("OpenAI key");
    expect(hits.map((h) => h.text)).toContain("Alice: my OpenAI key is [secret: OpenAI key]");
    expect(await store.search(key)).toEqual([]);
    expect(JSON.stringify(searchResultsForModel("OpenAI key", hits))).not.toContain(tail);
    await recall.close();
    expect(await indexBytes(store)).not.toContain(tail.toLowerCase());
  });

  it("rebuilds an index made before secrets were masked, and leaves none of its old text in the file", async () => {
    const { recall, store } = await setup();
    await store.search("OpenAI");
    await recall.close();
    // What the earlier version of the index held: the message as written, under schema 1.
    const db = await SqliteDb.open(store.indexPath);
    await db.run("UPDATE units SET text = ? WHERE source = 'conversation' AND ord = 0", [`my OpenAI key is ${key}`]);
    await db.run("INSERT INTO units_fts(rowid, body, context, title) VALUES (?, ?, '', 'keys')", [999_999, `my openai key is ${key.toLowerCase()}`]);
    await db.run("UPDATE meta SET value = '1' WHERE key = 'schema'");
    await db.close();
    expect(await indexBytes(store)).toContain(tail.toLowerCase());

    const reopened = new Recall({ debounceMs: 10 });
    recalls.push(reopened);
    const again = MemoryStore.forUser(store.home, "42", { recall: reopened });
    const hits = await again.search("OpenAI key");
    expect(hits.map((h) => h.text)).toContain("Alice: my OpenAI key is [secret: OpenAI key]");
    expect(JSON.stringify(hits)).not.toContain(tail);
    await reopened.close();
    expect(await indexBytes(store)).not.toContain(tail.toLowerCase());
  });

  it("masks what memory_search gives the model even for a hit that did not come from the index", () => {
    const answer = searchResultsForModel(`my key ${key}`, [
      { source: "memory", date: "2026-10-02", title: `Keys ${key}`, text: `- ${key}`, score: 1, file: "MEMORY.md", ord: 1, ords: [1], sharedIn: "*" },
    ]);
    expect(JSON.stringify(answer)).not.toContain(tail);
    expect(answer).toMatchObject({ query: "my key [secret: OpenAI key]", results: [{ title: "Keys [secret: OpenAI key]", text: "- [secret: OpenAI key]" }] });
  });
});
