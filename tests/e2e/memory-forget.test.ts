import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { once } from "node:events";
import { mkdir, readdir, readFile, stat, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { PerformanceObserver } from "node:perf_hooks";
import { describe, expect, it } from "vitest";
import { PERSON } from "../../src/memory/memory-file.js";
import { componentsOf, slashOption as s } from "../fakes/fake-discord/index.js";
import { botMessages, startBot, type BotHarness } from "../helpers/bot-harness.js";
import { makeTempHome } from "../helpers/temp-home.js";

/** Alice's memory mentions her sister Clara in every place; Bob's too. */
async function withClara(h: BotHarness) {
  const alice = h.engine.memoryOf(h.discord.alice.id);
  await alice.user.add("Family", "- sister Clara, a nurse", PERSON);
  await alice.user.add("Family", "- brother Wei", PERSON);
  await alice.user.add("Likes", "- oolong", PERSON);
  // A heading that names her, and a change waiting for approval that mentions her.
  await alice.memory.add("Clara's visit", "- bring tea", PERSON);
  await alice.propose({ session: "s", title: "t", tool: "memory_add", file: "user", section: "Family", content: "- Clara likes jasmine" });
  await mkdir(join(alice.dir, "daily", "archive"), { recursive: true });
  await writeFile(join(alice.dir, "daily", "archive", "2026-10-01.md"), "## 10:00 · call\nAlice called Clara about the baby.\n\n## 18:00 · run\nA 5 km run.\n");
  // A conversation through the bot: archived, stored in the session store, indexed.
  h.model.enqueue({ text: "Say hi to Clara from me!" }, { text: "Alice talked about Clara." });
  const start = await h.discord.userSends({ channelId: h.discord.textChannel.id, userId: h.discord.alice.id, content: "Clara is visiting", mentionsBot: true });
  await h.discord.waitFor(() => botMessages(h.discord, start.id)[0]);
  const end = h.discord.runSlashCommand({ userId: h.discord.alice.id, channelId: start.id, name: "end" });
  await h.discord.waitFor(() => h.discord.interactionResponses(end.id).find((r) => r.content?.includes("ended")));
  await h.engine.memoryOf(h.discord.bob.id).user.add("Family", "- cousin Clara", PERSON);
  await h.engine.settle();
  return { alice, thread: start.id };
}

async function memory(h: BotHarness, userId: string, sub: string, options: ReturnType<typeof s.string>[] = []) {
  const call = h.discord.runSlashCommand({ userId, channelId: h.discord.textChannel.id, name: "memory", options: [s.subcommand(sub, options)] });
  return h.discord.waitFor(() => h.discord.interactionResponses(call.id).find((r) => r.content || r.modal));
}

/** Every byte under a folder, as text: to prove words are gone from everything stored. */
async function everything(dir: string): Promise<string> {
  const names = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  const texts = await Promise.all(names.filter((d) => d.isFile()).map((d) => readFile(join(d.parentPath, d.name), "latin1")));
  return texts.join("\n");
}

describe("/memory forget", () => {
  it("shows what would go, then removes it from files, logs, conversations, history, sessions and the index", async () => {
    const h = await startBot();
    const { alice, thread } = await withClara(h);
    const preview = await memory(h, h.discord.alice.id, "forget", [s.string("text", "clara")]);
    expect(preview.ephemeral).toBe(true);
    expect(preview.content).toMatch(
      /^Forgetting “clara” removes 2 line\(s\) of your memory files, 2 daily log entries, 2 conversation message\(s\), 4 history entries, for example:\n> - sister Clara, a nurse\n/,
    );
    expect(componentsOf(preview).map((c) => c.label)).toEqual(["Forget", "Cancel"]);
    expect(await alice.user.read()).toContain("Clara");

    const click = h.discord.clickButton({ userId: h.discord.alice.id, messageId: preview.messageId!, customId: componentsOf(preview)[0]!.customId! });
    await h.discord.waitFor(() => h.discord.message(preview.messageId!)?.content.startsWith("Forgotten"));
    expect(h.discord.message(preview.messageId!)!.content).toBe(
      "Forgotten: 2 line(s) of your memory files, 2 daily log entries, 2 conversation message(s), 4 history entries. It is gone from history and search too.",
    );
    void click;
    expect(await alice.user.read()).toBe("## Family\n- brother Wei\n\n## Likes\n- oolong\n");
    expect(await alice.memory.read()).toBe("");
    expect(alice.listProposals()).toEqual([]);
    expect(await readFile(join(alice.dir, "daily", "archive", "2026-10-01.md"), "utf8")).toBe("## 18:00 · run\nA 5 km run.\n");
    expect(await alice.search("Clara")).toEqual([]);
    expect(JSON.stringify(await h.engine.latestIn(thread)).toLowerCase()).not.toContain("clara");
    await h.stop();
    for (const place of [alice.dir, alice.indexPath, join(h.home, "sessions.sqlite")]) {
      const stored = place.endsWith(".sqlite") ? await readFile(place, "latin1") : await everything(place);
      const at = stored.toLowerCase().indexOf("clara");
      expect(at === -1 ? "gone" : `${place}: …${stored.slice(Math.max(0, at - 80), at + 40)}…`).toBe("gone");
    }

    expect(await readFile(join(h.home, "users", h.discord.bob.id, "USER.md"), "utf8")).toContain("cousin Clara");
  });

  it("changes nothing on Cancel, and says so when nothing matches", async () => {
    const h = await startBot();
    const { alice } = await withClara(h);
    const preview = await memory(h, h.discord.alice.id, "forget", [s.string("text", "Clara")]);
    const cancel = h.discord.clickButton({ userId: h.discord.alice.id, messageId: preview.messageId!, customId: componentsOf(preview)[1]!.customId! });
    await h.discord.waitFor(() => h.discord.interactionResponses(cancel.id)[0]);
    expect(h.discord.message(preview.messageId!)!.content).toBe("Nothing was forgotten.");
    expect(await alice.user.read()).toContain("Clara");
    expect((await memory(h, h.discord.alice.id, "forget", [s.string("text", "kayak")])).content).toBe("Nothing in your memory mentions “kayak”.");
    // A private mark made ahead of its section holds the words too: it is counted, and Forget takes it.
    await alice.markPrivate("Kayak club", true);
    const marked = await memory(h, h.discord.alice.id, "forget", [s.string("text", "kayak")]);
    expect(marked.content).toContain("1 private mark(s)");
    h.discord.clickButton({ userId: h.discord.alice.id, messageId: marked.messageId!, customId: componentsOf(marked)[0]!.customId! });
    // "Forgotten: …" comes once the whole forget is done, the search index's purge included.
    await h.discord.waitFor(() => h.discord.message(marked.messageId!)?.content.startsWith("Forgotten"));
    expect(h.discord.message(marked.messageId!)!.content).toContain("1 private mark(s)");
    expect(alice.readSettings().privateSections).toEqual([]);
  });
});

describe("/memory delete-all", () => {
  it("asks for DELETE in a form, refuses anything else, then removes all of the person's data and nobody else's", async () => {
    const h = await startBot();
    const { alice, thread } = await withClara(h);
    const opened = await memory(h, h.discord.alice.id, "delete-all");
    const modal = opened.modal!;
    expect(modal.inputs[0]?.label).toBe("Type DELETE to confirm");
    const wrong = h.discord.submitModal({
      userId: h.discord.alice.id,
      channelId: h.discord.textChannel.id,
      customId: modal.customId,
      fields: { confirm: "delete" },
    });
    expect((await h.discord.waitFor(() => h.discord.interactionResponses(wrong.id)[0])).content).toMatch(/^Nothing was deleted/);
    expect(await alice.user.read()).toContain("Clara");

    const right = h.discord.submitModal({
      userId: h.discord.alice.id,
      channelId: h.discord.textChannel.id,
      customId: modal.customId,
      fields: { confirm: "DELETE" },
    });
    expect((await h.discord.waitFor(() => h.discord.interactionResponses(right.id).find((r) => r.content))).content).toMatch(/^Deleted: everything/);
    await expect(readdir(alice.dir)).rejects.toThrow();
    expect(await readdir(join(h.home, "index"))).not.toContain(`${h.discord.alice.id}.sqlite`);
    expect(await h.engine.latestIn(thread)).toBeUndefined();
    expect(await readFile(join(h.home, "users", h.discord.bob.id, "USER.md"), "utf8")).toContain("cousin Clara");
    await h.stop();
    expect(await readFile(join(h.home, "sessions.sqlite"), "latin1")).not.toContain(h.discord.alice.id);
  });
});

describe("temporary files left by a writer killed mid-write", () => {
  /** The pid of a process that has exited: what a killed writer's temporary file names. */
  async function deadPid(): Promise<number> {
    const child = spawn(process.execPath, ["-e", ""]);
    await once(child, "exit");
    return child.pid!;
  }

  /** Leftovers as writeFileAtomic names them, in the person's folder and below it. */
  async function leaveTemporaryFiles(dir: string, pid: number): Promise<string[]> {
    const paths = [
      join(dir, `.USER.md.${pid}.0a1b2c3d4e5f.tmp`),
      join(dir, "conversations", `.2026-12-02-tea-3f2a9c1b.md.${pid}.aa11bb22cc33.tmp`),
      join(dir, "daily", `.2026-12-02.md.${pid}.ffeeddccbbaa.tmp`),
    ];
    for (const path of paths) {
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, "half a file about Clara");
    }
    return paths;
  }

  it("are removed at start-up; one a live writer is still writing stays", async () => {
    const home = await makeTempHome();
    const dir = join(home, "users", "42");
    const leftovers = await leaveTemporaryFiles(dir, await deadPid());
    const writing = join(dir, `.MEMORY.md.${process.pid}.123456abcdef.tmp`);
    await writeFile(writing, "being written");
    const h = await startBot({ home });
    await h.engine.settle();
    for (const path of leftovers) await expect(stat(path)).rejects.toThrow(/ENOENT/);
    expect(await readFile(writing, "utf8")).toBe("being written");
  });

  it("are removed by /memory forget", async () => {
    const h = await startBot();
    const { alice } = await withClara(h);
    const leftovers = await leaveTemporaryFiles(alice.dir, await deadPid());
    const preview = await memory(h, h.discord.alice.id, "forget", [s.string("text", "clara")]);
    h.discord.clickButton({ userId: h.discord.alice.id, messageId: preview.messageId!, customId: componentsOf(preview)[0]!.customId! });
    await h.discord.waitFor(() => h.discord.message(preview.messageId!)?.content.startsWith("Forgotten"));
    for (const path of leftovers) await expect(stat(path)).rejects.toThrow(/ENOENT/);
    expect(JSON.stringify(await readdir(alice.dir, { recursive: true }))).not.toMatch(/\.tmp/);
  });
});

describe("forgetting over a large home", () => {
  /** Alice's home after years: thousands of conversations, years of archived logs, a full journal. */
  async function largeHome(h: BotHarness): Promise<void> {
    const alice = h.engine.memoryOf(h.discord.alice.id);
    const words = (n: number) => Array.from({ length: n }, (_, i) => `word${i % 97}`).join(" ");
    const conversations = join(alice.dir, "conversations");
    const archive = join(alice.dir, "daily", "archive");
    await mkdir(conversations, { recursive: true });
    await mkdir(archive, { recursive: true });
    const writes: Promise<void>[] = [];
    for (let i = 0; i < 3_000; i++) {
      const day = `20${20 + Math.floor(i / 365)}-${String((i % 12) + 1).padStart(2, "0")}-${String((i % 28) + 1).padStart(2, "0")}`;
      const mention = i % 10 === 0 ? "my sister Clara called" : "nothing special";
      const body = `# talk ${i}\n\n- place: a thread\n- opened: ${day} 10:00 (UTC)\n- closed: ${day} 10:30 (UTC)\n- session: s${i}\n\n## 🧑 Alice\n${mention}. ${words(150)}\n\n## 🤖 Assistant\n${words(100)}\n`;
      writes.push(writeFile(join(conversations, `${day}-talk-${String(i).padStart(8, "0")}.md`), body));
    }
    // Five and a half years of archived logs (the archive has no cap: condensed days keep their originals there).
    for (let d = 0; d < 2_000; d++) {
      const day = new Date(Date.UTC(2021, 0, 1 + d)).toISOString().slice(0, 10);
      writes.push(writeFile(join(archive, `${day}.md`), `## 09:00 · walk\n${d % 20 === 0 ? "Walked with Clara." : "Walked alone."} ${words(1000)}\n`));
    }
    const at = Date.parse("2026-11-01T00:00:00Z");
    const lines = Array.from({ length: 1_000 }, (_, i) => {
      const id = `${(at + i * 1000).toString(36)}abcdef`;
      const before = `- ${i % 5 === 0 ? "Clara" : "Wei"} ${words(300)}`;
      const entry = {
        id,
        at: new Date(at + i * 1000).toISOString(),
        by: { kind: "person" },
        op: "edit",
        changes: [{ file: "MEMORY.md", section: `S${i % 7}`, position: 0, before, after: `${before} more` }],
      };
      return `${JSON.stringify(entry)}\n${JSON.stringify({ done: id })}\n`;
    });
    writes.push(writeFile(join(alice.dir, "journal.jsonl"), lines.join("")));
    await Promise.all(writes);
    await alice.user.add("Family", "- sister Clara, a nurse", PERSON);
    // The search index is built once beforehand, as it is in a home that has been in use.
    await alice.updateIndex();
  }

  /**
   * The longest stretch of this process's own work between two ticks of a 10 ms timer: the main
   * thread's CPU time (Linux: utime + stime, in 10 ms ticks) less the garbage collector's pauses.
   * Wall-clock lateness would also count the time other processes on a busy machine take the
   * CPU, and the collector's pauses stretch with that load (its helper threads wait for a core);
   * neither is this code's to change. What is left is what keeps a timer waiting on a quiet machine.
   */
  function longestStretch(): { stop(): number } {
    const cpu = () => {
      const fields = readFileSync(`/proc/self/task/${process.pid}/stat`, "utf8").split(") ")[1]!.split(" ");
      return (Number(fields[11]) + Number(fields[12])) * 10;
    };
    const pauses: { start: number; end: number }[] = [];
    const collector = new PerformanceObserver((list) => {
      for (const e of list.getEntries()) pauses.push({ start: e.startTime, end: e.startTime + e.duration });
    });
    collector.observe({ entryTypes: ["gc"] });
    const stretches: { from: number; to: number; cpuMs: number }[] = [];
    let last = { at: performance.now(), cpu: cpu() };
    const tick = () => {
      const now = { at: performance.now(), cpu: cpu() };
      stretches.push({ from: last.at, to: now.at, cpuMs: now.cpu - last.cpu });
      last = now;
    };
    const probe = setInterval(tick, 10);
    return {
      stop: () => {
        clearInterval(probe);
        tick();
        collector.disconnect();
        const paused = (from: number, to: number) => pauses.reduce((sum, p) => sum + Math.max(0, Math.min(to, p.end) - Math.max(from, p.start)), 0);
        return Math.max(...stretches.map((s) => s.cpuMs - paused(s.from, s.to)));
      },
    };
  }

  it("never keeps a timer on the same event loop waiting more than ~100 ms, preview and forget alike", async () => {
    const h = await startBot();
    await largeHome(h);
    const stretch = longestStretch();
    const call = h.discord.runSlashCommand({
      userId: h.discord.alice.id,
      channelId: h.discord.textChannel.id,
      name: "memory",
      options: [s.subcommand("forget", [s.string("text", "clara")])],
    });
    const preview = await h.discord.waitFor(() => h.discord.interactionResponses(call.id).find((r) => r.content), 60_000);
    expect(preview.content).toMatch(
      /^Forgetting “clara” removes 1 line\(s\) of your memory files, 100 daily log entries, 300 conversation message\(s\), 201 history entries/,
    );
    h.discord.clickButton({ userId: h.discord.alice.id, messageId: preview.messageId!, customId: componentsOf(preview)[0]!.customId! });
    await h.discord.waitFor(() => h.discord.message(preview.messageId!)?.content.startsWith("Forgotten"), 120_000);
    expect(stretch.stop()).toBeLessThanOrEqual(100);
    const alice = h.engine.memoryOf(h.discord.alice.id);
    expect(await everything(alice.dir)).not.toMatch(/clara/i);
  }, 180_000);
});
