import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startFakeOpenAI, type FakeOpenAI } from "../fakes/fake-openai.js";
import { runToEnd, runTsx } from "../helpers/child-process.js";
import { makeTempHome } from "../helpers/temp-home.js";


/** Runs `npm run chat` the way a person would pipe it, minus npm's own start-up cost. */
const runChat = (args: string[], input: string, env: Record<string, string>) => runToEnd("src/cli/chat.ts", args, input, env);

let fake: FakeOpenAI | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

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
    expect(run.stdout).toContain("Session ended; summary saved to today's daily log.");
    expect(await readFile(join(home, "users/42/USER.md"), "utf8")).toBe("## Likes\n- green tea\n");
    const daily = await readdir(join(home, "users/42/daily"));
    expect(daily).toHaveLength(1);
    const log = await readFile(join(home, "users/42/daily", daily[0]!), "utf8");
    expect(log).toMatch(/^## \d\d:\d\d · tea\nPerson 42 said they like green tea\.\n$/);
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
    expect(second.stdout).toMatch(/1\. \d{4}-\d{2}-\d{2} · conversation › books {2}\(conversations\/.+\.md\)\n {3}Mei: My sister says I should read Piranesi\./);
    expect(second.stdout).toContain("Usage: /search <words>");
    expect(second.stdout).toContain('Nothing found for "kayak".');
  }, 30_000);

  it("shows history and undoes a change with /history and /undo; asks before saving with /save", async () => {
    fake = await startFakeOpenAI();
    const home = await makeTempHome();
    const env = { AGENTKIT_HOME: home, OPENAI_BASE_URL: fake.baseURL };
    fake.enqueue(
      { toolCalls: [{ name: "memory_add", arguments: { file: "user", section: "Likes", content: "- oolong" } }] },
      { text: "Noted." },
      { text: "Summary." },
    );
    const run = await runChat(["--user", "42", "--title", "tea"], "I like oolong\n/history\n/undo\n/undo 1\n/undo 1\n/memory user\n/end\n", env);
    expect(run.stderr).toBe("");
    expect(run.stdout).toMatch(/\d\d-\d\d \d\d:\d\d · AgentKit in “tea” · USER\.md › Likes: \+ “oolong” {2}\[[0-9a-z]+\]\n/);
    expect(run.stdout).toMatch(/1\. \d\d-\d\d \d\d:\d\d · AgentKit in “tea” · USER\.md › Likes: \+ “oolong” .*\n2\. .* · default persona · SOUL\.md › Name: \+ “AgentKit” \(\+2 more\) .*\nUndo one with \/undo N\./);
    expect(run.stdout).toMatch(/Undone \([0-9a-z]+\); it applies from the next conversation\./);
    // Number 1 is now the undo itself: undoing it brings the line back.
    expect(run.stdout).toContain("── USER.md (18/1400 chars)\n## Likes\n- oolong");

    await writeFile(join(home, "users/42/settings.json"), JSON.stringify({ askBeforeSaving: "profile" }));
    fake.enqueue(
      { toolCalls: [{ name: "memory_add", arguments: { file: "user", section: "Work", content: "- designer" } }] },
      { text: "Shall I remember that?" },
      { text: "Summary." },
    );
    const asked = await runChat(["--user", "42"], "I'm a designer\n/save 1\n/end\n", env);
    expect(asked.stdout).toContain("✋ 1. waiting for your OK: user › Work (add) — /save 1 or /discard 1");
    expect(asked.stdout).toContain("Saved to USER.md › Work");
    expect(await readFile(join(home, "users/42/USER.md"), "utf8")).toContain("## Work\n- designer");
  }, 30_000);

  it("ends the session with its summary when stdin closes without /end", async () => {
    fake = await startFakeOpenAI();
    const home = await makeTempHome();
    fake.enqueue({ text: "Hello!" }, { text: "They said hello." });
    const run = await runChat([], "hello\n", { AGENTKIT_HOME: home, OPENAI_BASE_URL: fake.baseURL });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("Hello!\n");
    const daily = await readdir(join(home, "users/1/daily"));
    expect(await readFile(join(home, "users/1/daily", daily[0]!), "utf8")).toContain("They said hello.");
  }, 30_000);

  it("ends the session with its summary on Ctrl+C (SIGINT)", async () => {
    fake = await startFakeOpenAI();
    const home = await makeTempHome();
    fake.enqueue({ text: "Hi!" }, { text: "Interrupted chat summary." });
    const chat = runTsx("src/cli/chat.ts", ["--user", "7"], { AGENTKIT_HOME: home, OPENAI_BASE_URL: fake.baseURL });
    chat.child.stdin.write("hello\n");
    for (let i = 0; i < 200 && !chat.stdout().includes("Hi!"); i++) await new Promise((r) => setTimeout(r, 50));
    chat.child.kill("SIGINT");
    expect(await chat.exited).toBe(0);
    expect(chat.stdout()).toContain("ending the session");
    const daily = await readdir(join(home, "users/7/daily"));
    expect(await readFile(join(home, "users/7/daily", daily[0]!), "utf8")).toContain("Interrupted chat summary.");
  }, 30_000);

  it("summarises a session left open by a run that died, at the next start", async () => {
    fake = await startFakeOpenAI();
    const home = await makeTempHome();
    fake.enqueue({ text: "Noted, Mochi." });
    const first = runTsx("src/cli/chat.ts", ["--user", "9"], { AGENTKIT_HOME: home, OPENAI_BASE_URL: fake.baseURL });
    first.child.stdin.write("my cat is Mochi\n");
    // The line ends once the turn is saved; the kill comes after that.
    for (let i = 0; i < 200 && !first.stdout().includes("Noted, Mochi.\n"); i++) await new Promise((r) => setTimeout(r, 50));
    first.child.kill("SIGKILL");
    await first.exited;
    fake.setFallback((req) => (req.body.stream ? { text: "hi" } : { text: `summary ${JSON.stringify(req.body.messages).includes("Mochi") ? "of the Mochi run" : "of the second run"}` }));
    const second = await runChat(["--user", "9"], "hello\n/end\n", { AGENTKIT_HOME: home, OPENAI_BASE_URL: fake.baseURL });
    expect(second.code).toBe(0);
    const daily = await readdir(join(home, "users/9/daily"));
    const log = await readFile(join(home, "users/9/daily", daily[0]!), "utf8");
    expect(log).toContain("summary of the Mochi run");
    expect(log).toContain("summary of the second run");
  }, 30_000);

  it("leaves a session of a run that is still going alone", async () => {
    fake = await startFakeOpenAI();
    const home = await makeTempHome();
    fake.setFallback((req) => (req.body.stream ? { text: "reply" } : { text: `summary ${fake!.requests.length}` }));
    const first = runTsx("src/cli/chat.ts", ["--user", "5"], { AGENTKIT_HOME: home, OPENAI_BASE_URL: fake.baseURL });
    first.child.stdin.write("first run\n");
    for (let i = 0; i < 200 && !first.stdout().includes("reply\n"); i++) await new Promise((r) => setTimeout(r, 50));
    const second = await runChat(["--user", "5"], "second run\n/end\n", { AGENTKIT_HOME: home, OPENAI_BASE_URL: fake.baseURL });
    expect(second.code).toBe(0);
    first.child.stdin.end("/end\n");
    expect(await first.exited).toBe(0);
    const daily = await readdir(join(home, "users/5/daily"));
    const log = await readFile(join(home, "users/5/daily", daily[0]!), "utf8");
    // One summary per run: the second run did not close the first one's session.
    expect(log.match(/^summary \d+$/gm)).toHaveLength(2);
    const summaryRequests = fake.requests.filter((r) => !r.body.stream);
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

  it("exits non-zero with one clear line naming OPENAI_BASE_URL when no model is reachable", async () => {
    const home = await makeTempHome();
    const run = await runChat(["--user", "42"], "hi\n/end\n", {
      AGENTKIT_HOME: home,
      OPENAI_BASE_URL: "http://127.0.0.1:9/v1",
    });
    expect(run.code).not.toBe(0);
    const lines = run.stderr.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/OPENAI_BASE_URL/);
  }, 30_000);

  it("needs no Discord settings and refuses a bad --user", async () => {
    const run = await runChat(["--user", "../etc"], "", { OPENAI_BASE_URL: "http://127.0.0.1:9/v1" });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--user must be a numeric id/);
  }, 30_000);
});
