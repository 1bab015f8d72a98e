import { readdir, readFile, writeFile, mkdir } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startFakeOpenAI, type FakeOpenAI } from "../fakes/fake-openai.js";
import { runToEnd, runTsx } from "../helpers/child-process.js";
import { makeTempHome } from "../helpers/temp-home.js";
import { dailyLog } from "../helpers/daily-log.js";

/** Runs `npm run chat` the way a person would pipe it, minus npm's own start-up cost. */
const runChat = (args: string[], input: string, env: Record<string, string>) => runToEnd("src/cli/chat.ts", args, input, env);

const ESC = "\x1b";

let fake: FakeOpenAI | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 400 && !check(); i++) await new Promise((r) => setTimeout(r, 25));
  if (!check()) throw new Error(`timed out waiting for ${what}`);
}

/** A fake model and a home whose person 42 asks before anything about them is saved. */
async function askingFirst(): Promise<{ model: FakeOpenAI; home: string; env: Record<string, string> }> {
  const model = await startFakeOpenAI();
  fake = model;
  const home = await makeTempHome();
  await mkdir(join(home, "users/42"), { recursive: true });
  await writeFile(join(home, "users/42/settings.json"), JSON.stringify({ askBeforeSaving: "profile" }));
  return { model, home, env: { AGENTKIT_HOME: home, OPENAI_BASE_URL: model.baseURL } };
}

describe("npm run chat", () => {
  it("runs a full piped session: streamed reply, saved line, summary in the daily log", async () => {
    fake = await startFakeOpenAI();
    const home = await makeTempHome();
    fake.enqueue(
      { toolCalls: [{ name: "memory_add", arguments: { file: "user", section: "Likes", content: "- green tea" } }] },
      { text: "Noted, you like green tea!" },
      { text: "Person 42 said they like green tea." },
    );
    const run = await runChat(["--user", "42", "--title", "tea"], "I like green tea\n/memory user\n/end\n", {
      AGENTKIT_HOME: home,
      OPENAI_BASE_URL: fake.baseURL,
      AGENTKIT_TIMEZONE: "Asia/Shanghai",
    });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("Noted, you like green tea!\n💾 saved to USER.md › Likes\n");
    expect(run.stdout).toContain("── USER.md (21/1400 chars)\n## Likes\n- green tea");
    expect(run.stdout).toContain("Conversation ended; its summary is in today's daily log.");
    expect(await readFile(join(home, "users/42/USER.md"), "utf8")).toBe("## Likes\n- green tea\n");
    expect(await dailyLog(home, "42")).toMatch(/^## \d\d:\d\d · tea\nPerson 42 said they like green tea\.\n$/);
  }, 30_000);

  it("over the person's storage quota: answers, says once that the conversation won't be kept, and keeps only its summary", async () => {
    fake = await startFakeOpenAI();
    const home = await makeTempHome();
    await mkdir(join(home, "users/42/conversations"), { recursive: true });
    await writeFile(join(home, "users/42/conversations/2026-11-01-long-talk-aaaaaaaa.md"), `# long talk\n\n## 🧑 Mei\n${"tea and cake\n".repeat(4_600)}`);
    fake.enqueue({ text: "Hello." }, { text: "Still here." }, { text: "Person 42 said hello twice." });
    const run = await runChat(["--user", "42", "--title", "hi"], "hi\nagain\n/end\n", {
      AGENTKIT_HOME: home,
      OPENAI_BASE_URL: fake.baseURL,
      STORAGE_QUOTA_MB: "0.05",
    });
    expect(run.code).toBe(0);
    // Its figure counts the recall index too, which the first turn may have begun.
    const line =
      /💾 Your memory here is full \(\d+ KB of 50 KB\): I still answer, but this conversation won't be kept word for word\. Delete conversations you no longer need \(the web page's Conversations, from \/memory web\) or forget words with \/memory forget, then try again; the bot's operator can raise STORAGE_QUOTA_MB\.\n/g;
    expect(run.stdout).toMatch(new RegExp(`Hello\\.\\n${line.source}`));
    expect(run.stdout.match(line)).toHaveLength(1);
    expect(run.stdout).toContain("Still here.");
    expect(await readdir(join(home, "users/42/conversations"))).toEqual(["2026-11-01-long-talk-aaaaaaaa.md"]);
    expect(await dailyLog(home, "42")).toContain("Person 42 said hello twice.");
  }, 30_000);

  it("/private marks a section of USER.md private and back, as Discord's /memory private does, and /memory shows 🔒", async () => {
    fake = await startFakeOpenAI();
    const home = await makeTempHome();
    await mkdir(join(home, "users/42"), { recursive: true });
    await writeFile(join(home, "users/42/USER.md"), "## Likes\n- oolong\n\n## Health notes\n- allergic to kestrelnuts\n");
    const run = await runChat(["--user", "42"], "/private Health notes\n/memory user\n/private Health notes off\n/private Family\n/private ## bad\n/end\n", {
      AGENTKIT_HOME: home,
      OPENAI_BASE_URL: fake.baseURL,
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("🔒 “Health notes” is private: from the next conversation in a public thread, I leave it out");
    expect(run.stdout).toContain("- allergic to kestrelnuts\n🔒 Private (kept out of public threads): Health notes\n");
    expect(run.stdout).toContain("“Health notes” is no longer private");
    expect(run.stdout).toContain("(USER.md and MEMORY.md have no section “Family” yet; the setting applies once one exists.)");
    expect(run.stdout).toMatch(/#/);
    expect(JSON.parse(await readFile(join(home, "users/42/settings.json"), "utf8"))).toEqual({ privateSections: ["family"] });
  }, 30_000);

  it("archives the conversation at the end, and /search finds it in the next run", async () => {
    fake = await startFakeOpenAI();
    const home = await makeTempHome();
    const env = { AGENTKIT_HOME: home, OPENAI_BASE_URL: fake.baseURL };
    fake.enqueue({ text: "Piranesi is a lovely novel." }, { text: "They talked about Piranesi." });
    const first = await runChat(["--user", "42", "--title", "books", "--name", "Mei"], "My sister says I should read Piranesi.\n/end\n", env);
    expect(first.code).toBe(0);
    const [file] = await readdir(join(home, "users/42/conversations"));
    expect(file).toMatch(/^\d{4}-\d{2}-\d{2}-books-[0-9a-f]{8}\.md$/);
    expect(await readFile(join(home, "users/42/conversations", file!), "utf8")).toContain(
      "## 🧑 Mei\nMy sister says I should read Piranesi.\n\n## 🤖 Assistant\nPiranesi is a lovely novel.\n",
    );
    const second = await runChat(["--user", "42"], "/search sister\n/search\n/search kayak\n/end\n", env);
    expect(second.stderr).toBe("");
    expect(second.stdout).toMatch(/1\. \d{4}-\d{2}-\d{2} · conversation › books\n {3}Mei: My sister says I should read Piranesi\./);
    expect(second.stdout).toContain("Usage: /search <words>");
    expect(second.stdout).toContain('Nothing found for "kayak".');
  }, 30_000);

  it("/search takes --since and --until (a day or a month), lists a range's summaries with no words, and refuses a wrong date in one line", async () => {
    fake = await startFakeOpenAI();
    const home = await makeTempHome();
    const env = { AGENTKIT_HOME: home, OPENAI_BASE_URL: fake.baseURL };
    fake.enqueue({ text: "Piranesi is a lovely novel." }, { text: "They talked about Piranesi." });
    await runChat(["--user", "42", "--title", "books", "--name", "Mei"], "My sister says I should read Piranesi.\n/end\n", env);
    const lines = [
      "/search sister --since 2000-01-01",
      "/search sister --until 2000-01",
      "/search --since=2000-01",
      "/search sister --since nonsense",
      "/search x --since 2026-11 --until 2026-10",
      "/search --until",
      "/end",
    ];
    const run = await runChat(["--user", "42"], `${lines.join("\n")}\n`, env);
    expect(run.stderr).toBe("");
    expect(run.stdout).toMatch(
      /Search: "sister" · from 2000-01-01\n1\. \d{4}-\d{2}-\d{2} · conversation › books\n {3}Mei: My sister says I should read Piranesi\./,
    );
    expect(run.stdout).toContain('Nothing found for "sister" until 2000-01-31.');
    expect(run.stdout).toMatch(/From 2000-01-01\n1\. \d{4}-\d{2}-\d{2} · daily › \d\d:\d\d · books\n {3}They talked about Piranesi\./);
    expect(run.stdout).toContain("“nonsense” is not a date: give a day as YYYY-MM-DD or a month as YYYY-MM (e.g. 2026-10-03 or 2026-10).");
    expect(run.stdout).toContain("The start (2026-11-01) is after the end (2026-10-31).");
    expect(run.stdout).toContain("--until needs a date");
    const zh = await runChat(["--user", "42", "--locale", "zh-CN"], "/search 小说 --until 上个月\n/search --since 2000-01\n/end\n", env);
    expect(zh.stdout).toContain("“上个月”不是日期");
    expect(zh.stdout).toMatch(/2000-01-01 起\n1\. \d{4}-\d{2}-\d{2} · 日志 › /);
  }, 30_000);

  it('calls the person "User" when --name is not given, not the OS account', async () => {
    fake = await startFakeOpenAI();
    const home = await makeTempHome();
    fake.enqueue({ text: "Hello!" }, { text: "Summary." });
    const run = await runChat(["--user", "42"], "hi\n/end\n", { AGENTKIT_HOME: home, OPENAI_BASE_URL: fake.baseURL, USER: "root", LOGNAME: "root" });
    expect(run.code).toBe(0);
    expect(fake.requests[0]!.body.messages[0]!.content).toContain('their display name is "User"');
    const [file] = await readdir(join(home, "users/42/conversations"));
    expect(await readFile(join(home, "users/42/conversations", file!), "utf8")).toContain("## 🧑 User\nhi\n");
  }, 30_000);

  it("/undo N means the Nth line of the last /undo list until the next list, and says what was undone", async () => {
    fake = await startFakeOpenAI();
    const home = await makeTempHome();
    const env = { AGENTKIT_HOME: home, OPENAI_BASE_URL: fake.baseURL };
    fake.enqueue(
      { toolCalls: [{ name: "memory_add", arguments: { file: "user", section: "Likes", content: "- oolong" } }] },
      { text: "Noted." },
      { toolCalls: [{ name: "memory_add", arguments: { file: "memory", section: "Follow-ups", content: "- ask about the trip" } }] },
      { text: "Noted too." },
      { text: "Summary." },
    );
    const run = await runChat(
      ["--user", "42", "--title", "tea"],
      "I like oolong\nI'm going on a trip\n/history\n/undo\n/undo 2\n/undo 2\n/undo 1\n/undo 9\n/undo\n/memory user\n/end\n",
      env,
    );
    expect(run.stderr).toBe("");
    expect(run.stdout).toMatch(/\d\d-\d\d \d\d:\d\d · AgentKit in “tea” · USER\.md › Likes: \+ “oolong” {2}\[[0-9a-z]+\]\n/);
    const firstList =
      /1\. .* · MEMORY\.md › Follow-ups: \+ “ask about the trip” {2}\[[0-9a-z]+\]\n2\. .* · USER\.md › Likes: \+ “oolong” {2}\[([0-9a-z]+)\]\n(?!3\.)/.exec(
        run.stdout,
      );
    expect(firstList).not.toBeNull();
    const oolong = firstList![1]!;
    // The reply names what was undone.
    expect(run.stdout).toContain(`Undone (${oolong}):\n  `);
    expect(run.stdout).toMatch(/Undone \([0-9a-z]+\):\n {2}\d\d-\d\d \d\d:\d\d · AgentKit in “tea” · USER\.md › Likes: \+ “oolong”/);
    // The same number still means the same change: it is not a different one after the undo.
    expect(run.stdout).toContain(`Change ${oolong} was already undone`);
    expect(run.stdout).toMatch(/Undone \([0-9a-z]+\):\n {2}.* · MEMORY\.md › Follow-ups: \+ “ask about the trip”/);
    expect(run.stdout).toContain("There is no change 9 in the last list; /undo lists them.");
    // A new list numbers afresh: the undo itself is now number 1.
    expect(run.stdout).toMatch(/\n1\. .* · you · ↩ undo: MEMORY\.md › Follow-ups/);
    expect(run.stdout).toContain("── USER.md (0/1400 chars)\n(empty)");
  }, 30_000);

  it("shows the text a proposal would save; /save N and /discard N keep their numbers; the model is told /save N, not buttons", async () => {
    const { model, home, env } = await askingFirst();
    model.enqueue(
      {
        toolCalls: [
          { name: "memory_add", arguments: { file: "user", section: "Work", content: "- designer at a studio" } },
          { name: "memory_add", arguments: { file: "user", section: "Pets", content: "- a cat named Mochi" } },
        ],
      },
      { text: "Shall I remember that?" },
      { text: "Summary." },
    );
    const run = await runChat(["--user", "42"], "I'm a designer at a studio with a cat named Mochi\n/save 1\n/discard 2\n/save 1\n/save\n/end\n", env);
    expect(run.stderr).toBe("");
    expect(run.stdout).toContain("✋ 1. waiting for your OK: USER.md › Work: + “- designer at a studio” — /save 1 or /discard 1");
    expect(run.stdout).toContain("✋ 2. waiting for your OK: USER.md › Pets: + “- a cat named Mochi” — /save 2 or /discard 2");
    expect(run.stdout).toContain("Saved to USER.md › Work");
    // After /save 1, number 2 is still the cat, not a renumbered list.
    expect(run.stdout).toContain("Discarded; nothing was saved to USER.md › Pets.");
    expect(run.stdout).toContain("That change was already saved or discarded");
    expect(run.stdout).toContain("No change is waiting for your OK.");
    expect(await readFile(join(home, "users/42/USER.md"), "utf8")).toBe("## Work\n- designer at a studio\n");
    const toolResults = model.requests[1]!.body.messages.filter((m) => m.role === "tool").map((m) => String(m.content));
    expect(toolResults).toHaveLength(2);
    for (const result of toolResults) {
      expect(result).toContain("/save N or /discard N");
      expect(result).not.toContain("button");
    }
  }, 30_000);

  it("keeps a proposal whose /save is refused (the file filled up meanwhile), so it can be saved or discarded later", async () => {
    const { model, env } = await askingFirst();
    // Each fits USER.md (cap 1400) alone; the second no longer fits once the first is saved.
    const long = (word: string) => `- ${word} ${"x".repeat(780)}`;
    model.enqueue(
      {
        toolCalls: [
          { name: "memory_add", arguments: { file: "user", section: "Work", content: long("work") } },
          { name: "memory_add", arguments: { file: "user", section: "Pets", content: long("pets") } },
        ],
      },
      { text: "Shall I remember that?" },
      { text: "Summary." },
    );
    const run = await runChat(["--user", "42"], "I work a lot and have pets\n/save 1\n/save 2\n/save 2\n/discard 2\n/end\n", env);
    expect(run.stderr).toBe("");
    expect(run.stdout).toContain("Saved to USER.md › Work");
    const refusals = run.stdout.split("\n").filter((line) => line.startsWith("Not saved: USER.md is full"));
    // Refused twice: the proposal was still there for the second /save.
    expect(refusals).toHaveLength(2);
    expect(run.stdout).toContain("It is still waiting");
    expect(run.stdout).toContain("Discarded; nothing was saved to USER.md › Pets.");
  }, 30_000);

  it("answers unknown /commands with a pointer to /help instead of sending them to the model; // sends a leading slash; /memory view works", async () => {
    fake = await startFakeOpenAI();
    const home = await makeTempHome();
    fake.setFallback({ text: "ok" });
    const run = await runChat(
      ["--user", "42"],
      "/frobnicate now\n/Help\n//end is a word\n/usr/bin is missing\n/memory view user\n/memory search kayak\n/end\n",
      {
        AGENTKIT_HOME: home,
        OPENAI_BASE_URL: fake.baseURL,
      },
    );
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("Unknown command /frobnicate; see /help.");
    // Discord's spelling does what it does there.
    expect(run.stdout).toContain("── USER.md (0/1400 chars)\n(empty)");
    expect(run.stdout).toContain('Nothing found for "kayak".');
    expect(run.stdout).toContain("/settings [ask off|profile|all]");
    const sent = fake.requests.filter((r) => r.body.tools).map((r) => r.body.messages.at(-1)!.content);
    expect(sent).toEqual(["/end is a word", "/usr/bin is missing"]);
  }, 30_000);

  it("refuses a message over ATTACHMENT_MESSAGE_KB with one line and sends nothing to the model", async () => {
    fake = await startFakeOpenAI();
    const home = await makeTempHome();
    fake.setFallback({ text: "ok" });
    const run = await runChat(["--user", "42"], `${"y".repeat(3000)}\nshort\n/end\n`, {
      AGENTKIT_HOME: home,
      OPENAI_BASE_URL: fake.baseURL,
      ATTACHMENT_MESSAGE_KB: "2",
    });
    expect(run.code).toBe(1);
    expect(run.stderr.trim().split("\n")).toEqual(["That message is 3,000 bytes; one message holds at most 2,048 (ATTACHMENT_MESSAGE_KB). Nothing was sent."]);
    expect(fake.requests.filter((r) => r.body.tools).map((r) => r.body.messages.at(-1)!.content)).toEqual(["short"]);
  }, 30_000);

  it("says so when the model sends an empty answer", async () => {
    fake = await startFakeOpenAI();
    const home = await makeTempHome();
    fake.enqueue({ text: "" }, { text: "Summary." });
    const run = await runChat(["--user", "42"], "hello?\n/end\n", { AGENTKIT_HOME: home, OPENAI_BASE_URL: fake.baseURL });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("(The model sent an empty answer. Try again, or say it another way.)");
  }, 30_000);

  it("/settings shows and changes ask before saving, language and time zone in settings.json", async () => {
    fake = await startFakeOpenAI();
    const home = await makeTempHome();
    const run = await runChat(
      ["--user", "42"],
      "/settings\n/settings ask all\n/settings timezone Mars/Olympus\n/settings timezone Europe/Berlin\n/settings tidy ask\n/settings tidy sometimes\n/settings language zh-CN\n/settings\n/settings colour blue\n/end\n",
      { AGENTKIT_HOME: home, OPENAI_BASE_URL: fake.baseURL, AGENTKIT_TIMEZONE: "UTC" },
    );
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("Ask before saving: off: I save what is worth remembering");
    expect(run.stdout).toContain("Time zone: UTC (the bot's default; set yours).");
    expect(run.stdout).toContain("Ask before saving: all: every change waits for /save N. It applies from now on.");
    expect(run.stdout).toContain("“Mars/Olympus” is not a time zone name: use one such as Asia/Shanghai or Europe/Berlin. Nothing was changed.");
    expect(run.stdout).toContain("Time zone: Europe/Berlin. Daily logs use it from now on");
    expect(run.stdout).toContain("Nightly tidy-up: on. Once a day");
    expect(run.stdout).toContain("Nightly tidy-up: ask first.");
    expect(run.stdout).toContain("Choose on, ask or off.");
    expect(run.stdout).toContain("夜间整理：先问你。");
    // From the language change on, the chat's own lines are Chinese.
    expect(run.stdout).toContain("语言：中文");
    expect(run.stdout).toContain("保存前询问: all：每一处改动都要等你 /save N");
    expect(run.stdout).toContain("时区：Europe/Berlin。\n");
    expect(run.stdout).toContain("用法：/settings");
    expect(run.stdout).toContain("对话已结束。");
    expect(JSON.parse(await readFile(join(home, "users/42/settings.json"), "utf8"))).toEqual({
      askBeforeSaving: "all",
      timezone: "Europe/Berlin",
      tidyUp: "ask",
      locale: "zh-CN",
    });
  }, 30_000);

  it("prints where an answer's memory came from when the model searched", async () => {
    fake = await startFakeOpenAI();
    const home = await makeTempHome();
    const env = { AGENTKIT_HOME: home, OPENAI_BASE_URL: fake.baseURL };
    fake.enqueue({ text: "Piranesi is a lovely novel." }, { text: "They talked about Piranesi." });
    await runChat(["--user", "42", "--title", "books", "--name", "Mei"], "My sister says I should read Piranesi.\n/end\n", env);
    fake.enqueue(
      { toolCalls: [{ name: "memory_search", arguments: { query: "Piranesi sister" } }] },
      { text: "Your sister recommended Piranesi." },
      { text: "Summary." },
    );
    const run = await runChat(["--user", "42"], "what did my sister recommend?\n/end\n", env);
    expect(run.stdout).toMatch(/Your sister recommended Piranesi\.\n(.*\n)*🔎 from .*“books” \(\d{4}-\d{2}-\d{2}\)/);
  }, 30_000);

  it("tells of a tidy-up once, after the first answer, with the command that takes it back", async () => {
    fake = await startFakeOpenAI();
    const home = await makeTempHome();
    await mkdir(join(home, "users/42"), { recursive: true });
    const notice = {
      entry: "mq1abc123456",
      counts: { merge: 2, replace: 1, remove: 0, move: 3 },
      example: { section: "Home", before: "Lives in Paris", after: "Lives in Berlin" },
      at: "2026-12-03T04:00:00Z",
    };
    await writeFile(join(home, "users/42/tidy.json"), JSON.stringify({ notice }));
    fake.enqueue({ text: "Hi!" }, { text: "Again." }, { text: "Summary." });
    const run = await runChat(["--user", "42"], "hello\nmore\n/end\n", { AGENTKIT_HOME: home, OPENAI_BASE_URL: fake.baseURL });
    expect(run.stdout).toContain(
      "🧹 I tidied my notes: merged 2, updated 1 (Home: Lives in Paris → Lives in Berlin), moved 3 facts from recent logs\n(/undo mq1abc123456 takes it all back; /history shows each change)",
    );
    expect(run.stdout.split("🧹")).toHaveLength(2);
    expect(JSON.parse(await readFile(join(home, "users/42/tidy.json"), "utf8"))).toEqual({});
  }, 30_000);

  it("speaks Chinese with --locale zh-CN, and with the person's settings.json locale", async () => {
    fake = await startFakeOpenAI();
    const home = await makeTempHome();
    fake.setFallback({ text: "好的" });
    const env = { AGENTKIT_HOME: home, OPENAI_BASE_URL: fake.baseURL };
    const flagged = await runChat(["--user", "42", "--locale", "zh-CN"], "/nope\n/help\n/undo\n/end\n", env);
    expect(flagged.stdout).toContain("未知命令 /nope；请看 /help。");
    expect(flagged.stdout).toContain("命令：");
    await mkdir(join(home, "users/43"), { recursive: true });
    await writeFile(join(home, "users/43/settings.json"), JSON.stringify({ locale: "zh-CN" }));
    const set = await runChat(["--user", "43"], "你好\n/memory nope\n/end\n", env);
    expect(set.stdout).toContain('没有文件 "nope"');
    expect(set.stdout).toContain("对话已结束；摘要已写入今天的日志。");
    const help = await runChat(["--help", "--locale", "zh-CN"], "", {});
    expect(help.stdout).toContain("用法：npm run chat");
  }, 40_000);

  it("prints someone else's text with its control characters shown, never obeyed", async () => {
    fake = await startFakeOpenAI();
    const home = await makeTempHome();
    const env = { AGENTKIT_HOME: home, OPENAI_BASE_URL: fake.baseURL };
    const hostile = `${ESC}]0;pwned\x07${ESC}[2J\rgone`;
    await mkdir(join(home, "users/42"), { recursive: true });
    // Files edited by hand (or by a tool of someone else's) can hold anything.
    await writeFile(join(home, "users/42/MEMORY.md"), `## Notes\n- kiwi ${hostile}\n`);
    const at = new Date().toISOString();
    const change = { file: "USER.md", section: "Evil", position: 0, before: null, after: `## Evil\n- ${hostile}\n` };
    await writeFile(
      join(home, "users/42/journal.jsonl"),
      `${JSON.stringify({ id: "mxhostile01", at, by: { kind: "person" }, op: "add", changes: [change] })}\n{"done":"mxhostile01"}\n`,
    );
    const proposal = {
      id: "a1b2c3d4e5",
      createdAt: at,
      session: "s",
      title: "t",
      tool: "memory_add",
      file: "user",
      section: `Pets ${ESC}[31m`,
      content: `- ${hostile}`,
    };
    await writeFile(join(home, "users/42/proposals.json"), JSON.stringify([proposal]));
    fake.enqueue({ text: `Here: ${hostile} kiwi` });
    fake.setFallback({ text: "Summary." });
    const run = await runChat(["--user", "42"], "kiwi?\n/memory memory\n/search kiwi\n/history\n/undo\n/save\n/end\n", env);
    expect(run.stdout).not.toContain(ESC);
    expect(run.stdout).not.toContain("\x07");
    expect(run.stdout).not.toContain("\r");
    expect(run.stdout).toContain("Here: ␛]0;pwned␇␛[2J␍gone kiwi");
    expect(run.stdout).toContain("- kiwi ␛]0;pwned␇␛[2J␍gone");
    expect(run.stdout).toMatch(/1\. .* · memory › Notes\n {3}.*kiwi ␛\]0;pwned␇/);
    expect(run.stdout).toMatch(/ · you · USER\.md › Evil: \+ “␛\]0;pwned␇␛\[2J␍gone” {2}\[mxhostile01\]/);
    expect(run.stdout).toContain("✋ 1. waiting for your OK: USER.md › Pets ␛[31m: + “- ␛]0;pwned␇␛[2J␍gone”");
  }, 30_000);

  it("names the terminal's own commands where the model repeats Discord's hints", async () => {
    fake = await startFakeOpenAI();
    const home = await makeTempHome();
    // Small chunks: the hint arrives cut into pieces, as a real stream cuts it.
    fake.enqueue(
      { text: "That note reads [blocked: possible prompt injection; see /memory view]; try /memory history too.", chunkSize: 3 },
      { text: "Summary." },
    );
    const run = await runChat(["--user", "42"], "what does my note say?\n/end\n", { AGENTKIT_HOME: home, OPENAI_BASE_URL: fake.baseURL });
    expect(run.stdout).toContain("That note reads [blocked: possible prompt injection; see /memory]; try /history too.\n");
    expect(run.stdout).not.toContain("/memory view");
  }, 30_000);

  it("ends the session with its summary when stdin closes without /end", async () => {
    fake = await startFakeOpenAI();
    const home = await makeTempHome();
    fake.enqueue({ text: "Hello!" }, { text: "They said hello." });
    const run = await runChat([], "hello\n", { AGENTKIT_HOME: home, OPENAI_BASE_URL: fake.baseURL });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("Hello!\n");
    expect(await dailyLog(home, "1")).toContain("They said hello.");
  }, 30_000);

  it("ends the session with its summary on SIGINT at rest", async () => {
    fake = await startFakeOpenAI();
    const home = await makeTempHome();
    fake.enqueue({ text: "Hi!" }, { text: "Interrupted chat summary." });
    const chat = runTsx("src/cli/chat.ts", ["--user", "7"], { AGENTKIT_HOME: home, OPENAI_BASE_URL: fake.baseURL });
    chat.child.stdin.write("hello\n");
    await until(() => chat.stdout().includes("Hi!\n"), "the answer");
    chat.child.kill("SIGINT");
    expect(await chat.exited).toBe(0);
    expect(chat.stdout()).toContain("Conversation ended; its summary is in today's daily log.");
    expect(await dailyLog(home, "7")).toContain("Interrupted chat summary.");
  }, 30_000);

  it("SIGTERM while an answer streams stops it, keeps what was shown, and ends the conversation with its summary", async () => {
    fake = await startFakeOpenAI();
    const home = await makeTempHome();
    fake.enqueue({ text: "One two three four five six seven eight nine ten eleven twelve.", chunkSize: 4, tokensPerSecond: 4 });
    fake.setFallback((req) => ({ text: `summary of: ${JSON.stringify(req.body.messages.at(-1)?.content).slice(0, 400)}` }));
    const chat = runTsx("src/cli/chat.ts", ["--user", "7"], { AGENTKIT_HOME: home, OPENAI_BASE_URL: fake.baseURL });
    chat.child.stdin.write("count\n");
    await until(() => chat.stdout().includes("One two"), "the answer to start");
    chat.child.kill("SIGTERM");
    expect(await chat.exited).toBe(0);
    expect(chat.stdout()).toContain("⏹ stopped");
    expect(chat.stdout()).not.toContain("twelve");
    expect(chat.stdout()).toContain("Conversation ended; its summary is in today's daily log.");
    const [file] = await readdir(join(home, "users/7/conversations"));
    const transcript = await readFile(join(home, "users/7/conversations", file!), "utf8");
    expect(transcript).toMatch(/## 🤖 Assistant\nOne two[^\n]*\n/);
    expect(await dailyLog(home, "7")).toContain("summary of:");
  }, 30_000);

  it("summarises a session left open by a run that died, at the next start", async () => {
    fake = await startFakeOpenAI();
    const home = await makeTempHome();
    fake.enqueue({ text: "Noted, Mochi." });
    const first = runTsx("src/cli/chat.ts", ["--user", "9"], { AGENTKIT_HOME: home, OPENAI_BASE_URL: fake.baseURL });
    first.child.stdin.write("my cat is Mochi\n");
    // The line ends once the turn is saved; the kill comes after that.
    await until(() => first.stdout().includes("Noted, Mochi.\n"), "the answer");
    first.child.kill("SIGKILL");
    await first.exited;
    fake.setFallback((req) =>
      req.body.tools ? { text: "hi" } : { text: `summary ${JSON.stringify(req.body.messages).includes("Mochi") ? "of the Mochi run" : "of the second run"}` },
    );
    const second = await runChat(["--user", "9"], "hello\n/end\n", { AGENTKIT_HOME: home, OPENAI_BASE_URL: fake.baseURL });
    expect(second.code).toBe(0);
    const log = await dailyLog(home, "9");
    expect(log).toContain("summary of the Mochi run");
    expect(log).toContain("summary of the second run");
  }, 30_000);

  it("leaves a session of a run that is still going alone", async () => {
    fake = await startFakeOpenAI();
    const home = await makeTempHome();
    fake.setFallback((req) => (req.body.tools ? { text: "reply" } : { text: `summary ${fake!.requests.length}` }));
    const first = runTsx("src/cli/chat.ts", ["--user", "5"], { AGENTKIT_HOME: home, OPENAI_BASE_URL: fake.baseURL });
    first.child.stdin.write("first run\n");
    await until(() => first.stdout().includes("reply\n"), "the answer");
    const second = await runChat(["--user", "5"], "second run\n/end\n", { AGENTKIT_HOME: home, OPENAI_BASE_URL: fake.baseURL });
    expect(second.code).toBe(0);
    first.child.stdin.end("/end\n");
    expect(await first.exited).toBe(0);
    const log = await dailyLog(home, "5");
    // One summary per run: the second run did not close the first one's session.
    expect(log.match(/^summary \d+$/gm)).toHaveLength(2);
    const summaryRequests = fake.requests.filter((r) => !r.body.tools);
    expect(summaryRequests).toHaveLength(2);
  }, 40_000);

  it("/clear drops the history but keeps the snapshot", async () => {
    fake = await startFakeOpenAI();
    const home = await makeTempHome();
    fake.enqueue({ text: "one" }, { text: "two" });
    fake.setFallback({ text: "summary" });
    const run = await runChat([], "first\n/clear\nsecond\n/end\n", { AGENTKIT_HOME: home, OPENAI_BASE_URL: fake.baseURL });
    expect(run.stdout).toContain("Conversation cleared");
    const second = fake.requests[1]!.body.messages;
    expect(second.map((m) => m.role)).toEqual(["system", "user"]);
    expect(second[0]).toEqual(fake.requests[0]!.body.messages[0]);
  }, 30_000);

  it("with no model reachable: one clear line naming OPENAI_BASE_URL, the chat goes on, and the exit code says a message failed", async () => {
    const home = await makeTempHome();
    const run = await runChat(["--user", "42"], "hi\n/memory user\n/end\n", {
      AGENTKIT_HOME: home,
      OPENAI_BASE_URL: "http://127.0.0.1:9/v1",
    });
    expect(run.code).toBe(1);
    const lines = run.stderr.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/Could not reach the model server at http:\/\/127\.0\.0\.1:9\/v1 \(OPENAI_BASE_URL\)/);
    expect(run.stdout).toContain("── USER.md (0/1400 chars)");
    expect(run.stdout).toContain("Conversation ended.");
  }, 30_000);

  it("the model server going away mid-answer: one line, no log lines on screen, and the chat goes on once it is back", async () => {
    fake = await startFakeOpenAI();
    const home = await makeTempHome();
    const port = Number(new URL(fake.baseURL).port);
    fake.enqueue({ text: "Let me think about that for a while", chunkSize: 4, stallAfterChunks: 2 });
    const chat = runTsx("src/cli/chat.ts", ["--user", "42"], { AGENTKIT_HOME: home, OPENAI_BASE_URL: fake.baseURL, LOG_LEVEL: "debug" });
    chat.child.stdin.write("tell me about tea\n");
    await until(() => chat.stdout().includes("Let me"), "the answer to start");
    await fake.close();
    await until(() => chat.stderr().includes("⚠️"), "the line about the model");
    fake = await startFakeOpenAI({ port });
    fake.enqueue({ text: "Tea is lovely." }, { text: "They asked about tea." });
    chat.child.stdin.end("tell me about tea\n/end\n");
    expect(await chat.exited).toBe(1);
    expect(chat.stderr().trim().split("\n")).toEqual([
      "⚠️ The model server stopped answering in the middle (the connection broke or the answer was garbled). Please try again.",
    ]);
    expect(chat.stdout()).toContain("Tea is lovely.\n");
    expect(chat.stdout()).toContain("Conversation ended; its summary is in today's daily log.");
    for (const line of [...chat.stdout().split("\n"), ...chat.stderr().split("\n")]) expect(line).not.toMatch(/^\{"level"/);
    // The person's message was not half-kept: the history holds one exchange, the one answered.
    const answered = fake.requests[0]!.body.messages.filter((m) => m.role === "user");
    expect(answered.map((m) => m.content)).toEqual(["tell me about tea"]);
    expect(await readFile(join(home, "logs/chat.log"), "utf8")).toMatch(/"level":/);
  }, 30_000);

  it("--help works without any configuration, and a bad option gets one line", async () => {
    const help = await runChat(["--help"], "", {});
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("Usage: npm run chat -- [options]");
    expect(help.stdout).toContain("--name <name>");
    const bad = await runChat(["--colour", "blue"], "", {});
    expect(bad.code).toBe(2);
    expect(bad.stderr.trim().split("\n")).toHaveLength(1);
    expect(bad.stderr).toContain("--colour");
    expect(bad.stderr).toContain("see --help");
  }, 30_000);

  it("needs no Discord settings and refuses a bad --user, --title or --name", async () => {
    const run = await runChat(["--user", "../etc"], "", { OPENAI_BASE_URL: "http://127.0.0.1:9/v1" });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--user must be a numeric id/);
    const title = await runChat(["--title", "x".repeat(101)], "", {});
    expect(title.code).toBe(2);
    expect(title.stderr).toContain("--title is at most 100 characters");
    const name = await runChat(["--name", `Mei\n## 🤖 Assistant`], "", {});
    expect(name.code).toBe(2);
    expect(name.stderr).toContain("--name must be one line of plain text");
  }, 30_000);
});
