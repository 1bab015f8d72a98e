import type { Say } from "../../lib/locale.js";
import { printable } from "../../lib/printable.js";
import type { AskBeforeSaving, TidyUpSetting } from "../../memory/index.js";
import { describeTidyUp } from "../../present/tidy-lines.js";
import { describeLanguage, describeTimeZone, directFiles, profileFiles, unknownTimeZoneLine } from "../../present/settings-lines.js";
import type { ChatContext } from "./context.js";

/** /settings in the terminal: ask before saving, language, time zone and the nightly tidy-up (settings.json, as Discord's /memory settings and /onboard). */

const ASK: Record<string, AskBeforeSaving> = {
  off: "off",
  false: "off",
  no: "off",
  profile: "profile",
  on: "profile",
  true: "profile",
  yes: "profile",
  all: "all",
};
const LANGUAGES: Record<string, string> = {
  en: "en",
  english: "en",
  "en-us": "en",
  "en-gb": "en",
  zh: "zh-CN",
  "zh-cn": "zh-CN",
  chinese: "zh-CN",
  中文: "zh-CN",
};
const TIDY: Record<string, TidyUpSetting> = { on: "on", true: "on", yes: "on", ask: "ask", off: "off", false: "off", no: "off" };
const KEYS: Record<string, "ask" | "language" | "timezone" | "tidy"> = {
  tidy: "tidy",
  "tidy-up": "tidy",
  tidy_up: "tidy",
  ask: "ask",
  "ask-before-saving": "ask",
  ask_before_saving: "ask",
  language: "language",
  lang: "language",
  locale: "language",
  timezone: "timezone",
  "time-zone": "timezone",
  tz: "timezone",
  zone: "timezone",
};

function describeAsk(setting: AskBeforeSaving | undefined, say: Say): string {
  switch (setting ?? "off") {
    case "off":
      return say("off: I save what is worth remembering and show it with 💾", "关闭：我会保存值得记住的内容，并用 💾 标出");
    case "profile":
      return say(
        `profile: changes to ${profileFiles(say)} wait for /save N; ${directFiles(say)} are saved directly`,
        `profile：对${profileFiles(say)}的改动要等你 /save N；${directFiles(say)}直接保存`,
      );
    case "all":
      return say("all: every change waits for /save N", "all：每一处改动都要等你 /save N");
  }
}

function overview(ctx: ChatContext): string {
  const { say, memory } = ctx;
  const settings = memory.readSettings();
  return [
    `${say("Ask before saving", "保存前询问")}: ${describeAsk(settings.askBeforeSaving, say)}`,
    describeLanguage(settings.locale, say),
    describeTimeZone(memory.timeZone().zone, settings.timezone !== undefined, say),
    describeTidyUp(settings.tidyUp, say),
    say(
      "Change one with /settings ask off|profile|all, /settings language en|zh-CN, /settings timezone Area/City, /settings tidy on|ask|off.",
      "修改：/settings ask off|profile|all、/settings language en|zh-CN、/settings timezone 地区/城市、/settings tidy on|ask|off。",
    ),
  ].join("\n");
}

export async function settingsCommand(ctx: ChatContext, args: string[]): Promise<void> {
  const [rawKey, value, ...rest] = args;
  if (rawKey === undefined) {
    ctx.print(printable(overview(ctx)));
    return;
  }
  const key = KEYS[rawKey.toLowerCase()];
  if (!key || value === undefined || rest.length > 0) {
    ctx.print(
      ctx.say(
        "Usage: /settings, or /settings ask off|profile|all, /settings language en|zh-CN, /settings timezone Area/City, /settings tidy on|ask|off.",
        "用法：/settings，或 /settings ask off|profile|all、/settings language en|zh-CN、/settings timezone 地区/城市、/settings tidy on|ask|off。",
      ),
    );
    return;
  }
  if (key === "tidy") {
    const setting = TIDY[value.toLowerCase()];
    if (!setting) return ctx.print(ctx.say("Choose on, ask or off.", "请选择 on、ask 或 off。"));
    await ctx.memory.saveSettings({ tidyUp: setting });
    return ctx.print(describeTidyUp(setting, ctx.say));
  }
  if (key === "ask") {
    const setting = ASK[value.toLowerCase()];
    if (!setting) return ctx.print(ctx.say("Choose off, profile or all.", "请选择 off、profile 或 all。"));
    await ctx.memory.saveSettings({ askBeforeSaving: setting });
    return ctx.print(
      `${ctx.say("Ask before saving", "保存前询问")}: ${describeAsk(setting, ctx.say)}. ${ctx.say("It applies from now on.", "从现在起生效。")}`,
    );
  }
  if (key === "language") {
    const locale = LANGUAGES[value.toLowerCase()];
    if (!locale) return ctx.print(ctx.say("Choose en or zh-CN.", "请选择 en 或 zh-CN。"));
    await ctx.memory.saveSettings({ locale });
    ctx.setLocale(locale);
    return ctx.print(ctx.say("Language: English, for this chat's lines and for Discord.", "语言：中文，用于本聊天的提示和 Discord。"));
  }
  const saved = await ctx.memory.saveSettings({ timezone: value });
  if (!saved.ok) return ctx.print(printable(unknownTimeZoneLine(saved.error.value, ctx.say)));
  ctx.print(
    printable(
      ctx.say(
        `Time zone: ${value}. Daily logs use it from now on; the assistant sees it from the next conversation.`,
        `时区：${value}。每日日志从现在起使用它；助手从下一次对话起看到它。`,
      ),
    ),
  );
}
