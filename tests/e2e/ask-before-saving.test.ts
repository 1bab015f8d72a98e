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
    expect(reply.content).toBe(
      "I'd like to remember that.\n-# 💾 saved to MEMORY.md › Follow-ups\n-# ✋ waiting for your OK: USER.md › Likes: + “- oolong”",
    );
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
});
