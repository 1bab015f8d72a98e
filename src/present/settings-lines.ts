import { listIn, type Say } from "../lib/locale.js";
import { FILE_TABLE, PROFILE_KINDS, WHOLE_FILE_KINDS } from "../memory/file-kinds.js";
import { cutChars } from "../lib/text.js";
import type { AskBeforeSaving, Settings } from "../memory/settings.js";

/** The files "ask before saving: profile" holds: "your profile (USER.md) and my persona (SOUL.md)". */
export function profileFiles(say: Say): string {
  return listIn(
    PROFILE_KINDS.map((kind) => say(`${FILE_TABLE[kind].name.en} (${FILE_TABLE[kind].label})`, `${FILE_TABLE[kind].name.zh}（${FILE_TABLE[kind].label}）`)),
    "and",
    say,
  );
}

/** The same files by name only, for a short label: "your profile and my persona" ("or" for a choice). */
export function profileNames(joiner: "and" | "or", say: Say): string {
  return listIn(
    PROFILE_KINDS.map((kind) => say(FILE_TABLE[kind].name.en, FILE_TABLE[kind].name.zh)),
    joiner,
    say,
  );
}

/** The files it saves directly: "my notes and the daily log". */
export function directFiles(say: Say): string {
  const direct = WHOLE_FILE_KINDS.filter((kind) => !PROFILE_KINDS.includes(kind)).map((kind) => say(FILE_TABLE[kind].name.en, FILE_TABLE[kind].name.zh));
  return listIn([...direct, say(`the ${FILE_TABLE.daily.name.en}`, FILE_TABLE.daily.name.zh)], "and", say);
}

/** One sentence a person can read: what the setting does now. */
export function describeAskBeforeSaving(setting: AskBeforeSaving | undefined, say: Say): string {
  switch (setting ?? "off") {
    case "off":
      return say("Ask before saving: off. I save what is worth remembering and show it with 💾.", "保存前询问：关闭。我会保存值得记住的内容，并用 💾 标出。");
    case "profile":
      return say(
        `Ask before saving: on for ${profileFiles(say)}; ${directFiles(say)} are saved directly.`,
        `保存前询问：对${profileFiles(say)}开启；${directFiles(say)}直接保存。`,
      );
    case "all":
      return say("Ask before saving: on for everything I save.", "保存前询问：对所有保存都开启。");
  }
}

/** The language setting in one sentence: Discord, the terminal and the web say it alike. */
export function describeLanguage(locale: string | undefined, say: Say): string {
  if (locale === undefined) return say("Language: not set; I follow your Discord's or browser's language.", "语言：未设置；跟随你的 Discord 或浏览器的语言。");
  return /^zh/i.test(locale) ? say("Language: 中文 (zh-CN).", "语言：中文（zh-CN）。") : say("Language: English (en).", "语言：English（en）。");
}

/** The time zone in one sentence: the one set, or the bot's default. */
export function describeTimeZone(zone: string, chosen: boolean, say: Say): string {
  return chosen
    ? say(`Time zone: ${zone}.`, `时区：${zone}。`)
    : say(`Time zone: ${zone} (the bot's default; set yours).`, `时区：${zone}（机器人的默认值；可设置你自己的）。`);
}

/** A person's settings in one short line (the web page's overview). */
export function settingsLine(settings: Settings, zone: string, say: Say): string {
  const ask = { off: say("off", "关闭"), profile: say("profile and persona", "资料和人设"), all: say("everything", "全部") }[settings.askBeforeSaving ?? "off"];
  const tidy = { on: say("on", "开启"), ask: say("ask first", "先问我"), off: say("off", "关闭") }[settings.tidyUp ?? "on"];
  const language = settings.locale ? (/^zh/i.test(settings.locale) ? "中文" : "English") : say("from Discord or the browser", "跟随 Discord 或浏览器");
  return [
    say(`Ask before saving: ${ask}`, `保存前询问：${ask}`),
    say(`nightly tidy-up: ${tidy}`, `夜间整理：${tidy}`),
    say(`time zone: ${zone}`, `时区：${zone}`),
    say(`language: ${language}`, `语言：${language}`),
  ].join(" · ");
}

/**
 * A time zone name this Node does not know, as every front end says it (/memory settings, /onboard,
 * the web page, the terminal's /timezone). `zone` is cut here; a front end that renders Markdown
 * takes its marks out first (the others show the name as typed).
 */
export function unknownTimeZoneLine(zone: string, say: Say): string {
  const shown = cutChars(zone, 64);
  return say(
    `“${shown}” is not a time zone name: use one such as Asia/Shanghai or Europe/Berlin. Nothing was changed.`,
    `“${shown}”不是时区名称：请使用 Asia/Shanghai 或 Europe/Berlin 这样的名称。没有做任何改动。`,
  );
}
