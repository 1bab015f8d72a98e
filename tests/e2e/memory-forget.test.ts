import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdir, readdir, readFile, stat, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
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
    expect(preview.content).toMatch(/^Forgetting “clara” removes 2 line\(s\) of your memory files, 2 daily log entries, 2 conversation message\(s\), 5 history entries, for example:\n> - sister Clara, a nurse\n/);
    expect(componentsOf(preview).map((c) => c.label)).toEqual(["Forget", "Cancel"]);
    expect(await alice.user.read()).toContain("Clara");

    const click = h.discord.clickButton({ userId: h.discord.alice.id, messageId: preview.messageId!, customId: componentsOf(preview)[0]!.customId! });
    await h.discord.waitFor(() => h.discord.message(preview.messageId!)?.content.startsWith("Forgotten"));
    expect(h.discord.message(preview.messageId!)!.content).toBe(
      "Forgotten: 2 line(s) of your memory files, 2 daily log entries, 2 conversation message(s), 5 history entries. It is gone from history and search too.",
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
  });
});

describe("/memory delete-all", () => {
  it("asks for DELETE in a form, refuses anything else, then removes all of the person's data and nobody else's", async () => {
    const h = await startBot();
    const { alice, thread } = await withClara(h);
    const opened = await memory(h, h.discord.alice.id, "delete-all");
    const modal = opened.modal!;
    expect(modal.inputs[0]?.label).toBe("Type DELETE to confirm");
    const wrong = h.discord.submitModal({ userId: h.discord.alice.id, channelId: h.discord.textChannel.id, customId: modal.customId, fields: { confirm: "delete" } });
    expect((await h.discord.waitFor(() => h.discord.interactionResponses(wrong.id)[0])).content).toMatch(/^Nothing was deleted/);
    expect(await alice.user.read()).toContain("Clara");

    const right = h.discord.submitModal({ userId: h.discord.alice.id, channelId: h.discord.textChannel.id, customId: modal.customId, fields: { confirm: "DELETE" } });
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
    const paths = [join(dir, `.USER.md.${pid}.0a1b2c3d4e5f.tmp`), join(dir, "conversations", `.2026-12-02-tea-3f2a9c1b.md.${pid}.aa11bb22cc33.tmp`), join(dir, "daily", `.2026-12-02.md.${pid}.ffeeddccbbaa.tmp`)];
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
