import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { renderConversation, type ConversationMessage } from "../../src/memory/conversation-log.js";
import { startFakeOpenAI, type FakeOpenAI } from "../fakes/fake-openai.js";
import { runToEnd } from "../helpers/child-process.js";
import { makeTempHome } from "../helpers/temp-home.js";

const memoryCli = (args: string[], env: Record<string, string>) => runToEnd("src/cli/memory.ts", args, "", env);

let fake: FakeOpenAI | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function homeWithHistory(): Promise<string> {
  const home = await makeTempHome();
  const dir = join(home, "users", "42");
  await mkdir(join(dir, "conversations"), { recursive: true });
  await mkdir(join(dir, "daily", "archive"), { recursive: true });
  const messages: ConversationMessage[] = [
    { speaker: "person", name: "Mei", text: "My sister recommended Piranesi, a novel by Susanna Clarke." },
    { speaker: "assistant", name: "Assistant", text: "A lovely pick; the house with endless halls." },
    { speaker: "person", name: "Mei", text: "我最喜欢乌龙茶，不加糖。" },
    { speaker: "assistant", name: "Assistant", text: "记住了。" },
  ];
  const log = { title: "books and tea", place: "a terminal", opened: "2026-10-02 10:00 (UTC)", closed: "2026-10-02 10:30 (UTC)", sessionId: "s1", messages };
  await writeFile(join(dir, "conversations", "2026-10-02-books-and-tea-aaaaaaaa.md"), renderConversation(log));
  await writeFile(join(dir, "daily", "archive", "2026-09-14.md"), "## 09:30 · car\nMei's car had its brakes replaced at Lopez Garage.\n");
  await writeFile(join(dir, "USER.md"), "## Family\n- Sister: Clara, a nurse\n");
  return home;
}

describe("npm run memory -- search", () => {
  it("prints one JSON array, best first, of source, date, title, text and score, with AGENTKIT_HOME alone", async () => {
    const home = await homeWithHistory();
    const run = await memoryCli(["search", "sister novel", "--user", "42", "--json"], { AGENTKIT_HOME: home });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const hits = JSON.parse(run.stdout) as Record<string, unknown>[];
    expect(hits.length).toBeGreaterThanOrEqual(2);
    for (const hit of hits) expect(Object.keys(hit).sort()).toEqual(["date", "score", "source", "text", "title"]);
    expect(hits[0]).toMatchObject({
      source: "conversation",
      date: "2026-10-02",
      title: "books and tea",
      text: "Mei: My sister recommended Piranesi, a novel by Susanna Clarke.",
    });
    const scores = hits.map((h) => h.score as number);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(hits.map((h) => h.source)).toContain("user");
  });

  it("finds Chinese by a two-character word, archived logs, and takes FTS5 syntax as plain text", async () => {
    const home = await homeWithHistory();
    const env = { AGENTKIT_HOME: home };
    const tea = JSON.parse((await memoryCli(["search", "乌龙", "--user", "42", "--json"], env)).stdout) as { text: string }[];
    expect(tea[0]?.text).toBe("Mei: 我最喜欢乌龙茶，不加糖。");
    const brakes = JSON.parse((await memoryCli(["search", "brake", "--user", "42", "--json", "--limit", "1"], env)).stdout) as unknown[];
    expect(brakes).toEqual([{ source: "daily", date: "2026-09-14", title: "09:30 · car", text: "Mei's car had its brakes replaced at Lopez Garage.", score: expect.any(Number) }]);
    const syntax = await memoryCli(["search", '"AND (* NEAR', "--user", "42", "--json"], env);
    expect(syntax.code).toBe(0);
    expect(JSON.parse(syntax.stdout)).toEqual([]);
  });

  it("prints readable results without --json, and a clear line for bad input", async () => {
    const home = await homeWithHistory();
    const run = await memoryCli(["search", "Piranesi", "--user", "42"], { AGENTKIT_HOME: home });
    expect(run.stdout).toMatch(/^1\. 2026-10-02 · conversation › books and tea {2}\(conversations\/2026-10-02-books-and-tea-aaaaaaaa\.md, score [\d.]+\)\n {3}Mei: My sister recommended Piranesi/);
    const badUser = await memoryCli(["search", "x", "--user", "alice"], { AGENTKIT_HOME: home });
    expect(badUser.code).toBe(2);
    expect(badUser.stderr).toMatch(/--user: "alice" is not a Discord user id/);
    const noQuery = await memoryCli(["search", "--user", "42"], { AGENTKIT_HOME: home });
    expect(noQuery.code).toBe(2);
    expect(noQuery.stderr).toMatch(/search needs a query/);
  });

  it("adds the semantic half with OPENAI_EMBEDDING_MODEL, and falls back to keywords when embeddings fail", async () => {
    fake = await startFakeOpenAI();
    const home = await homeWithHistory();
    // "beverage" shares no word with the tea message; this embedding puts them together.
    fake.setEmbeddings((texts) => texts.map((t) => (/beverage|乌龙/.test(t) ? [1, 0] : [0, 1])));
    const env = { AGENTKIT_HOME: home, OPENAI_BASE_URL: fake.baseURL, OPENAI_EMBEDDING_MODEL: "embed-test" };
    const semantic = await memoryCli(["search", "beverage", "--user", "42", "--json"], env);
    expect(semantic.code).toBe(0);
    expect((JSON.parse(semantic.stdout) as { text: string }[])[0]?.text).toBe("Mei: 我最喜欢乌龙茶，不加糖。");
    expect(fake.embeddingRequests.flatMap((r) => r.input)).toContain("beverage");
    fake.setEmbeddings(() => ({ error: { status: 503 } }));
    const failing = await memoryCli(["search", "Piranesi", "--user", "42", "--json"], env);
    expect(failing.code).toBe(0);
    expect((JSON.parse(failing.stdout) as { text: string }[])[0]?.text).toContain("Piranesi");
    expect(failing.stderr).toMatch(/warning: embeddings failed/);
  });
});

describe("npm run memory -- reindex", () => {
  it("rebuilds every person's index from the files", async () => {
    const home = await homeWithHistory();
    await mkdir(join(home, "users", "7"), { recursive: true });
    await writeFile(join(home, "users", "7", "MEMORY.md"), "## Notes\n- likes chess\n");
    const run = await memoryCli(["reindex"], { AGENTKIT_HOME: home });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/user 42: 6 entries from 3 file\(s\) in \d+ ms\nuser 7: 1 entry from 1 file\(s\) in \d+ ms\n/);
    const chess = JSON.parse((await memoryCli(["search", "chess", "--user", "7", "--json"], { AGENTKIT_HOME: home })).stdout) as unknown[];
    expect(chess).toHaveLength(1);
    // A person whose folder is gone: their index goes at the next full reindex.
    await rm(join(home, "users", "7"), { recursive: true });
    const again = await memoryCli(["reindex"], { AGENTKIT_HOME: home });
    expect(again.stdout).toContain("Removed 1 index(es) of people whose memory is gone.");
    expect(await readdir(join(home, "index"))).not.toContain("7.sqlite");
  });
});

describe("npm run memory -- history, undo, export, import", () => {
  it("lists changes, undoes one by its id, and moves a person's memory to another id", async () => {
    const home = await homeWithHistory();
    const env = { AGENTKIT_HOME: home };
    const { MemoryStore } = await import("../../src/memory/memory-store.js");
    const { PERSON } = await import("../../src/memory/memory-file.js");
    await MemoryStore.forUser(home, "42").user.add("Likes", "- oolong", PERSON);
    const history = await memoryCli(["history", "--user", "42"], env);
    expect(history.code).toBe(0);
    const id = /\[([0-9a-z]+)\]/.exec(history.stdout)?.[1];
    expect(history.stdout).toMatch(/ · you · USER\.md › Likes: \+ “oolong” {2}\[/);
    const json = JSON.parse((await memoryCli(["history", "--user", "42", "--json"], env)).stdout) as { id: string; op: string }[];
    expect(json[0]).toMatchObject({ id, op: "add" });
    const undone = await memoryCli(["undo", "--user", "42", "--change", id!], env);
    expect(undone.stdout).toMatch(/^Undone/);
    expect(await readFile(join(home, "users", "42", "USER.md"), "utf8")).toBe("## Family\n- Sister: Clara, a nurse\n");

    const exported = await memoryCli(["export", "--user", "42", "--out", join(home, "backup.json")], env);
    expect(exported.code).toBe(0);
    const dry = await memoryCli(["import", join(home, "backup.json"), "--user", "43", "--dry-run"], env);
    expect(dry.stdout).toMatch(/^Import backup\.json: 3 file\(s\) would be written\./);
    await expect(readFile(join(home, "users", "43", "USER.md"), "utf8")).rejects.toThrow();
    const imported = await memoryCli(["import", join(home, "backup.json"), "--user", "43"], env);
    expect(imported.stdout).toMatch(/^Imported backup\.json: 3 file\(s\) written\.\n[^]*\nUndo it with: npm run memory -- undo --user 43 --change [0-9a-z]+\n$/);
    expect(await readFile(join(home, "users", "43", "USER.md"), "utf8")).toBe("## Family\n- Sister: Clara, a nurse\n");
    const bad = await memoryCli(["import", join(home, "users", "42", "USER.md"), "--user", "43", "--dry-run"], env);
    expect(bad.code).toBe(0);
    const unknown = await memoryCli(["undo", "--user", "42", "--change", "nope"], env);
    expect(unknown.stdout).toBe("No change nope in the history.\n");
  });
});
