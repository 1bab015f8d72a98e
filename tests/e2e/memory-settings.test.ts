import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { slashOption as s } from "../fakes/fake-discord/index.js";
import { startBot, type BotHarness } from "../helpers/bot-harness.js";

async function settings(h: BotHarness, options: ReturnType<typeof s.string>[] = [], locale = "en-US") {
  const call = h.discord.runSlashCommand({
    userId: h.discord.alice.id,
    channelId: h.discord.textChannel.id,
    name: "memory",
    locale,
    options: [s.subcommand("settings", options)],
  });
  const answer = await h.discord.waitFor(() => h.discord.interactionResponses(call.id).find((r) => r.content));
  expect(answer.ephemeral).toBe(true);
  return answer.content!;
}

describe("/memory settings: the same settings as the terminal and the web page", () => {
  it("shows every setting, time zone and language included, and sets the time zone and the language", async () => {
    const h = await startBot();
    expect((await settings(h)).split("\n").slice(3)).toEqual([
      "Time zone: UTC (the bot's default; set yours).",
      "Language: not set; I follow your Discord's or browser's language.",
    ]);
    expect(await settings(h, [s.string("time_zone", "Asia/Shanghai")])).toBe("Time zone: Asia/Shanghai. It applies from now on, in every conversation.");
    // The answer is in the language just chosen.
    expect(await settings(h, [s.string("language", "zh-CN")])).toBe("语言：中文（zh-CN）。 从现在起对所有对话生效。");
    expect((await settings(h, [], "zh-CN")).split("\n").slice(3)).toEqual(["时区：Asia/Shanghai。", "语言：中文（zh-CN）。"]);
    expect(JSON.parse(await readFile(join(h.home, "users", h.discord.alice.id, "settings.json"), "utf8"))).toMatchObject({
      timezone: "Asia/Shanghai",
      locale: "zh-CN",
    });
  });

  it("refuses a time zone that is not one in one line, and changes nothing", async () => {
    const h = await startBot();
    expect(await settings(h, [s.string("time_zone", "Mars/Olympus"), s.string("language", "zh-CN")])).toBe(
      "“Mars/Olympus” is not a time zone name: use one such as Asia/Shanghai or Europe/Berlin. Nothing was changed.",
    );
    await expect(readFile(join(h.home, "users", h.discord.alice.id, "settings.json"), "utf8")).rejects.toThrow();
  });
});
