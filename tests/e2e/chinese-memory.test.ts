import type { APIEmbed } from "discord.js";
import { describe, expect, it } from "vitest";
import { componentsOf, slashOption as s } from "../fakes/fake-discord/index.js";
import type { FakeInteraction, InteractionResponseRecord } from "../fakes/fake-discord/model.js";
import { botMessages, startBot, type BotHarness } from "../helpers/bot-harness.js";

// A person whose Discord speaks Chinese gets every line of /memory in Chinese: each subcommand,
// its buttons, menus and forms, and its error paths. Their own words (Chinese here) and the
// names of files and commands are the only Latin text allowed.
const ZH = "zh-CN";

/** Latin words left once file names, commands and the person's words are taken out. */
function englishIn(text: string): string[] {
  const stripped = text
    .replace(/```[^]*?```/g, " ")
    .replace(/\b(?:SOUL|USER|MEMORY)\.md\b|\bdaily\/[\w./-]*|agentkit-memory\.json|[\w-]+\.(?:txt|json|md)\b/g, " ")
    .replace(/“[^”]*”/g, " ")
    .replace(/\/[a-z-]+(?: [a-z-]+)?(?: [a-z_]+:\S+)?/g, " ")
    .replace(/\bUTC\b|\b[A-Z][a-z]+\/[A-Za-z_]+\b/g, " ")
    .replace(/https?:\/\/\S+/g, " ");
  // Names stay as they are in any language: acronyms (API, JSON, DELETE) and products.
  const names = ["Discord", "AgentKit", "OpenAI", "Anthropic", "GitHub", "GitLab", "Google", "Slack", "Stripe", "Telegram", "Azure", "SendGrid"];
  return (stripped.match(/[A-Za-z]{3,}/g) ?? []).filter((word) => !/^[A-Z]{2,}$/.test(word) && !names.includes(word));
}

function textsOf(response: InteractionResponseRecord): string[] {
  const embeds = (response.embeds ?? []).flatMap((e: APIEmbed) => [
    e.title,
    e.description,
    e.footer?.text,
    ...(e.fields ?? []).flatMap((f) => [f.name, f.value]),
  ]);
  const components = componentsOf(response).flatMap((c) => [c.label, ...(c.options ?? []).flatMap((o) => [o.label, o.description])]);
  const modal = response.modal ? [response.modal.title, ...response.modal.inputs.flatMap((i) => [i.label, i.description, i.placeholder])] : [];
  return [response.content, ...embeds, ...components, ...modal].filter((t): t is string => typeof t === "string" && t !== "");
}

describe("/memory in Chinese", () => {
  it("answers every subcommand, button, menu, form and error in Chinese", async () => {
    const h = await startBot();
    const { discord } = h;
    const alice = discord.alice.id;
    const channelId = discord.textChannel.id;
    const seen: { step: string; text: string }[] = [];
    const answered = (call: FakeInteraction, step: string) =>
      discord.waitFor(
        () => {
          const done = discord.interactionResponses(call.id).filter((r) => r.content || r.modal || (r.embeds?.length ?? 0) > 0);
          return done.length > 0 ? done : undefined;
        },
        10_000,
        step,
      );
    const run = async (step: string, options: ReturnType<typeof s.subcommand>[]): Promise<InteractionResponseRecord> => {
      const call = discord.runSlashCommand({ userId: alice, channelId, name: "memory", options, locale: ZH });
      const responses = await answered(call, step);
      for (const r of responses) for (const text of textsOf(r)) seen.push({ step, text });
      return responses.at(-1)!;
    };
    const after = async (step: string, call: FakeInteraction) => {
      const responses = await answered(call, step);
      for (const r of responses) for (const text of textsOf(r)) seen.push({ step, text });
      return responses.at(-1)!;
    };

    await run("view, nothing yet", [s.subcommand("view")]);
    await run("view an empty file", [s.subcommand("view", [s.string("file", "user")])]);
    await run("export, nothing yet", [s.subcommand("export")]);
    await run("add", [s.subcommand("add", [s.string("file", "user"), s.string("section", "喜好"), s.string("content", "- 乌龙茶")])]);
    await run("add again", [s.subcommand("add", [s.string("file", "user"), s.string("section", "喜好"), s.string("content", "- 乌龙茶")])]);
    await run("add with a bad section name", [s.subcommand("add", [s.string("file", "user"), s.string("section", "## 喜好"), s.string("content", "- 绿茶")])]);
    await run("add over the cap", [s.subcommand("add", [s.string("file", "user"), s.string("section", "长"), s.string("content", "茶".repeat(1500))])]);
    await run("remove a section the file does not have", [s.subcommand("remove", [s.string("file", "user"), s.string("section", "工作")])]);
    await run("add a key", [
      s.subcommand("add", [
        s.string("file", "memory"),
        s.string("section", "钥匙"),
        s.string("content", ["sk-", "proj-", "Zq3Wm8Kp2Lr7Tn4Vb9Xc1Hd6Jf0Gs5Ya2Ue8I"].join("")),
      ]),
    ]);
    await run("add something unsafe", [
      s.subcommand("add", [s.string("file", "user"), s.string("section", "喜好"), s.string("content", "- 红茶\u200b\u2060")]),
    ]);
    await run("add a secret (saved with a warning)", [
      s.subcommand("add", [s.string("file", "memory"), s.string("section", "钥匙"), s.string("content", "sk-proj-" + "a1B2c3D4e5F6g7H8".repeat(3))]),
    ]);
    await run("view a file", [s.subcommand("view", [s.string("file", "user")])]);
    await run("view at a glance", [s.subcommand("view")]);
    await run("remove a missing section", [s.subcommand("remove", [s.string("file", "user"), s.string("section", "不存在")])]);
    await run("search", [s.subcommand("search", [s.string("query", "乌龙茶")])]);
    await run("search with no hit", [s.subcommand("search", [s.string("query", "咖啡")])]);
    await run("settings", [s.subcommand("settings")]);
    await run("export", [s.subcommand("export")]);

    const edit = await run("edit opens a form", [s.subcommand("edit", [s.string("file", "user")])]);
    const form = edit.modal!;
    await after(
      "edit, out of date",
      discord.submitModal({
        userId: alice,
        channelId,
        customId: `${form.customId.split(":").slice(0, 3).join(":")}:stale`,
        fields: { content: "## 喜好\n- 白茶\n" },
        locale: ZH,
      }),
    );
    await after(
      "edit, a broken form",
      discord.submitModal({ userId: alice, channelId, customId: "memory-edit:nonsense", fields: { content: "x" }, locale: ZH }),
    );
    await after(
      "edit, saved",
      discord.submitModal({ userId: alice, channelId, customId: form.customId, fields: { content: "## 喜好\n- 白茶\n" }, locale: ZH }),
    );

    const history = await run("history", [s.subcommand("history")]);
    expect(history.content).toContain("改动记录");
    const undo = await run("undo menu", [s.subcommand("undo")]);
    const [menu] = componentsOf(undo);
    await after(
      "undo chosen",
      discord.selectMenu({ userId: alice, messageId: undo.messageId!, customId: menu!.customId!, values: [menu!.options![0]!.value], locale: ZH }),
    );

    const forget = await run("forget, preview", [s.subcommand("forget", [s.string("text", "白茶")])]);
    const cancel = componentsOf(forget).find((c) => c.customId?.startsWith("fx:"))!;
    await after("forget, cancelled", discord.clickButton({ userId: alice, messageId: forget.messageId!, customId: cancel.customId!, locale: ZH }));
    await run("forget, nothing matches", [s.subcommand("forget", [s.string("text", "咖啡")])]);

    const deleteAll = await run("delete-all form", [s.subcommand("delete-all")]);
    await after(
      "delete-all, not confirmed",
      discord.submitModal({ userId: alice, channelId, customId: deleteAll.modal!.customId, fields: { confirm: "删除" }, locale: ZH }),
    );

    await run("import, a file it cannot read", [s.subcommand("import", [s.attachment("file", { filename: "notes.txt", data: "乌龙茶" })])]);
    await run("remove", [s.subcommand("remove", [s.string("file", "user"), s.string("section", "喜好")])]);

    const english = seen.map(({ step, text }) => ({ step, text, words: englishIn(text) })).filter((line) => line.words.length > 0);
    expect(english).toEqual([]);
    expect(seen.length).toBeGreaterThan(40);
  }, 60_000);

  it("the 💾 line under an answer in a Chinese conversation is Chinese", async () => {
    const h: BotHarness = await startBot();
    const { discord, model } = h;
    const settings = discord.runSlashCommand({ userId: discord.alice.id, channelId: discord.textChannel.id, name: "onboard", locale: ZH });
    const form = (await discord.waitFor(() => discord.interactionResponses(settings.id).find((r) => r.modal)))!.modal!;
    const submit = discord.submitModal({
      userId: discord.alice.id,
      channelId: discord.textChannel.id,
      customId: form.customId,
      fields: { name: "小猫", personality: "活泼", style: "简短", timezone: "" },
      locale: ZH,
    });
    await discord.waitFor(() => discord.interactionResponses(submit.id).find((r) => r.content));
    model.enqueue({ toolCalls: [{ name: "memory_add", arguments: { file: "user", section: "喜好", content: "- 乌龙茶" } }] }, { text: "记住了。" });
    const start = await discord.userSends({ channelId: discord.textChannel.id, userId: discord.alice.id, content: "我喜欢乌龙茶", mentionsBot: true });
    const answer = await discord.waitFor(() => botMessages(discord, start.id).find((m) => m.content.includes("记住了。") && m.components.length === 0));
    const footer = answer.content.split("\n").filter((line) => line.includes("💾"));
    expect(footer).toEqual([expect.stringContaining("已保存到 USER.md › 喜好")]);
    expect(footer.flatMap(englishIn)).toEqual([]);
  });

  it("a Save refused because the file filled up meanwhile says why in Chinese", async () => {
    const h = await startBot();
    const { discord, model } = h;
    const alice = discord.alice.id;
    const channelId = discord.textChannel.id;
    const settings = discord.runSlashCommand({
      userId: alice,
      channelId,
      name: "memory",
      locale: ZH,
      options: [s.subcommand("settings", [s.string("ask_before_saving", "all")])],
    });
    await discord.waitFor(() => discord.interactionResponses(settings.id).find((r) => r.content));
    model.enqueue(
      { toolCalls: [{ name: "memory_add", arguments: { file: "user", section: "喜好", content: "- 乌龙茶和茉莉花茶" } }] },
      { text: "要我记住吗？" },
    );
    const start = await discord.userSends({ channelId, userId: alice, content: "我喜欢乌龙茶", mentionsBot: true });
    const answer = await discord.waitFor(() => botMessages(discord, start.id).find((m) => m.content.includes("✋") && m.components.length > 0));
    // The file fills up before the person presses Save.
    const fill = discord.runSlashCommand({
      userId: alice,
      channelId,
      name: "memory",
      locale: ZH,
      options: [s.subcommand("add", [s.string("file", "user"), s.string("section", "长"), s.string("content", "茶".repeat(1380))])],
    });
    await discord.waitFor(() => discord.interactionResponses(fill.id).find((r) => r.content));
    const save = componentsOf(answer).find((c) => c.customId?.startsWith("ps:"))!;
    const click = discord.clickButton({ userId: alice, messageId: answer.id, customId: save.customId!, locale: ZH });
    const said = await discord.waitFor(() => discord.interactionResponses(click.id).find((r) => r.content));
    expect(said.content).toMatch(/^未保存： USER\.md 已满：\d+\/1400 字，这次要加 \d+ 字。/);
    expect(englishIn(said.content!)).toEqual([]);
  });
});
