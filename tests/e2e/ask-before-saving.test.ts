import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PERSON } from "../../src/memory/memory-file.js";
import { componentsOf, slashOption as s, type FakeMessage } from "../fakes/fake-discord/index.js";
import { botMessages, startBot, type BotHarness } from "../helpers/bot-harness.js";

async function askFirst(h: BotHarness, value: string, locale = "en-US") {
  const call = h.discord.runSlashCommand({
    userId: h.discord.alice.id,
    channelId: h.discord.textChannel.id,
    name: "memory",
    locale,
    options: [s.subcommand("settings", [s.string("ask_before_saving", value)])],
  });
  return h.discord.waitFor(() => h.discord.interactionResponses(call.id).find((r) => r.content));
}

/** The model saves to USER.md and MEMORY.md in one turn; returns the final reply message. */
async function turnThatSaves(h: BotHarness): Promise<FakeMessage> {
  h.model.enqueue(
    {
      toolCalls: [
        { name: "memory_add", arguments: { file: "user", section: "Likes", content: "- oolong" } },
        { name: "memory_add", arguments: { file: "memory", section: "Follow-ups", content: "- ask about the tea shop" } },
      ],
    },
    { text: "I'd like to remember that." },
  );
  const start = await h.discord.userSends({ channelId: h.discord.textChannel.id, userId: h.discord.alice.id, content: "I love oolong", mentionsBot: true });
  return h.discord.waitFor(() => botMessages(h.discord, start.id).find((m) => m.content.includes("✋") && m.components.length > 0));
}

const read = (h: BotHarness, file: string) => readFile(join(h.home, "users", h.discord.alice.id, file), "utf8").catch(() => "");

async function press(h: BotHarness, message: FakeMessage, label: string, userId = h.discord.alice.id) {
  const button = componentsOf(h.discord.message(message.id)!).find((c) => c.label === label)!;
  const click = h.discord.clickButton({ userId, messageId: message.id, customId: button.customId! });
  return h.discord.waitFor(() => h.discord.interactionResponses(click.id).find((r) => r.content));
}

describe("ask before saving", () => {
  it("is a setting, said back in English or Chinese", async () => {
    const h = await startBot();
    expect((await askFirst(h, "true")).content).toMatch(/^Ask before saving: on for your profile \(USER\.md\) and my persona \(SOUL\.md\)/);
    expect(JSON.parse(await read(h, "settings.json"))).toMatchObject({ askBeforeSaving: "profile" });
    expect((await askFirst(h, "all", "zh-CN")).content).toMatch(/^保存前询问：对所有保存都开启。/);
  });

  it("turns the model's USER.md write into a proposal with Save / Discard under the reply; MEMORY.md is written directly", async () => {
    const h = await startBot();
    await askFirst(h, "true");
    const reply = await turnThatSaves(h);
    expect(reply.content).toBe("I'd like to remember that.\n-# 💾 saved to MEMORY.md › Follow-ups\n-# ✋ waiting for your OK: USER.md › Likes: + “- oolong”");
    expect(componentsOf(reply).map((c) => c.label)).toEqual(["Save", "Discard"]);
    expect(await read(h, "USER.md")).toBe("");
    expect(await read(h, "MEMORY.md")).toBe("## Follow-ups\n- ask about the tea shop\n");
    const toolAnswer = JSON.parse(h.model.requests[1]!.body.messages.at(-2)!.content as string) as { pending?: boolean; note?: string };
    expect(toolAnswer).toMatchObject({ pending: true });
    expect(toolAnswer.note).toMatch(/wait for the person's approval/);

    const refused = await press(h, reply, "Save", h.discord.bob.id);
    expect(refused.content).toMatch(/belong to someone else's memory/);
    expect(await read(h, "USER.md")).toBe("");

    const saved = await press(h, reply, "Save");
    expect(saved.ephemeral).toBe(true);
    expect(saved.content).toBe("Saved to USER.md › Likes (18/1400 chars).");
    expect(await read(h, "USER.md")).toBe("## Likes\n- oolong\n");
    expect(componentsOf(h.discord.message(reply.id)!)).toEqual([]);
    const [latest] = await h.engine.memoryOf(h.discord.alice.id).history();
    expect(latest).toMatchObject({ by: { kind: "model", title: "I love oolong" }, changes: [{ file: "USER.md", section: "Likes" }] });
  });

  it("drops a discarded proposal, refuses an expired one, and checks the cap again when Save is pressed", async () => {
    const h = await startBot();
    await askFirst(h, "true");
    const first = await turnThatSaves(h);
    expect((await press(h, first, "Discard")).content).toBe("Discarded; nothing was saved.");
    expect(await read(h, "USER.md")).toBe("");

    const second = await turnThatSaves(h);
    const proposals = join(h.home, "users", h.discord.alice.id, "proposals.json");
    const stored = JSON.parse(await readFile(proposals, "utf8")) as { createdAt: string }[];
    await writeFile(proposals, JSON.stringify(stored.map((p) => ({ ...p, createdAt: new Date(Date.now() - 8 * 86_400_000).toISOString() }))));
    expect((await press(h, second, "Save")).content).toMatch(/expired \(after 7 days\)/);

    const third = await turnThatSaves(h);
    await h.engine.memoryOf(h.discord.alice.id).user.write(`## Bio\n${"x".repeat(1390)}\n`, PERSON);
    expect((await press(h, third, "Save")).content).toMatch(/^Not saved: USER\.md is full/);
  });

  it("keeps a proposal and its buttons when Save fails, says why, and saves it once there is room", async () => {
    const h = await startBot();
    await askFirst(h, "true");
    const reply = await turnThatSaves(h);
    const proposals = join(h.home, "users", h.discord.alice.id, "proposals.json");
    const waiting = await readFile(proposals, "utf8");
    const full = `## Bio\n${"x".repeat(1390)}\n`;
    await h.engine.memoryOf(h.discord.alice.id).user.write(full, PERSON);

    const failed = await press(h, reply, "Save");
    expect(failed.ephemeral).toBe(true);
    expect(failed.content).toMatch(/^Not saved: USER\.md is full/);
    expect(failed.content).toMatch(/still waiting: make room .*then press Save again, or Discard it/);
    expect(componentsOf(h.discord.message(reply.id)!).map((c) => c.label)).toEqual(["Save", "Discard"]);
    expect(await readFile(proposals, "utf8")).toBe(waiting);
    expect(await read(h, "USER.md")).toBe(full);

    await h.engine.memoryOf(h.discord.alice.id).user.write("## Bio\nshort\n", PERSON);
    expect((await press(h, reply, "Save")).content).toMatch(/^Saved to USER\.md › Likes/);
    expect(await read(h, "USER.md")).toBe("## Bio\nshort\n\n## Likes\n- oolong\n");
    expect(componentsOf(h.discord.message(reply.id)!)).toEqual([]);
    expect(JSON.parse(await readFile(proposals, "utf8"))).toEqual([]);
  });

  it("says in Chinese that a failed Save keeps the proposal", async () => {
    const h = await startBot();
    await askFirst(h, "true");
    const reply = await turnThatSaves(h);
    await h.engine.memoryOf(h.discord.alice.id).user.write(`## Bio\n${"x".repeat(1390)}\n`, PERSON);
    const button = componentsOf(h.discord.message(reply.id)!).find((c) => c.label === "Save")!;
    const click = h.discord.clickButton({ userId: h.discord.alice.id, messageId: reply.id, customId: button.customId!, locale: "zh-CN" });
    const failed = await h.discord.waitFor(() => h.discord.interactionResponses(click.id).find((r) => r.content));
    expect(failed.content).toMatch(/^未保存：/);
    expect(failed.content).toMatch(/提议仍在等待/);
  });

  it("a Save button for bob that names alice's proposal touches neither the proposal nor alice's buttons", async () => {
    const h = await startBot();
    await askFirst(h, "true");
    const reply = await turnThatSaves(h);
    const proposals = join(h.home, "users", h.discord.alice.id, "proposals.json");
    const waiting = await readFile(proposals, "utf8");
    const [aliceSave] = componentsOf(reply);
    const proposalId = aliceSave!.customId!.split(":")[2]!;
    // The bot's own message gets a row for bob naming alice's proposal: a button Discord would let bob press.
    const lyingRow = { type: 1, components: [{ type: 2, style: 3, label: "Save", custom_id: `ps:${h.discord.bob.id}:${proposalId}` }] };
    const channel = h.bot.client.channels.cache.get(reply.channelId);
    if (!channel?.isTextBased()) throw new Error("expected the thread");
    await channel.messages.edit(reply.id, { components: [...(reply.components as never[]), lyingRow as never] });
    const aliceRows = h.discord.message(reply.id)!.components.slice(0, 1);

    const click = h.discord.clickButton({ userId: h.discord.bob.id, messageId: reply.id, customId: `ps:${h.discord.bob.id}:${proposalId}` });
    const answer = await h.discord.waitFor(() => h.discord.interactionResponses(click.id).find((r) => r.content));
    expect(answer.ephemeral).toBe(true);
    expect(await readFile(proposals, "utf8")).toBe(waiting);
    expect(h.discord.message(reply.id)!.components.slice(0, 1)).toEqual(aliceRows);
    expect(await read(h, "USER.md")).toBe("");
    // Alice's own button still works.
    expect((await press(h, h.discord.message(reply.id)!, "Save")).content).toMatch(/^Saved to USER\.md › Likes/);
  });

  it("refuses a forged click (a custom id the message does not carry) before any handler runs", async () => {
    const h = await startBot();
    await askFirst(h, "true");
    const reply = await turnThatSaves(h);
    const proposalId = componentsOf(reply)[0]!.customId!.split(":")[2]!;
    const click = h.discord.forgeButtonClick({ userId: h.discord.bob.id, messageId: reply.id, customId: `pd:${h.discord.bob.id}:${proposalId}` });
    const answer = await h.discord.waitFor(() => h.discord.interactionResponses(click.id).find((r) => r.content));
    expect(answer).toMatchObject({ ephemeral: true });
    expect(answer.content).toMatch(/belong to someone else's memory/);
    expect(h.discord.message(reply.id)!.components).toEqual(reply.components);
  });
});
