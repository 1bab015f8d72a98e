/**
 * The one owner of the front ends' two languages: every line a person reads is written as
 * `say(english, chinese)`, and the locale (Discord's, the person's setting, the terminal's LANG)
 * picks one.
 */
export type Say = (english: string, chinese: string) => string;

export const english: Say = (en) => en;
export const chinese: Say = (_en, zh) => zh;

export function isChineseLocale(locale: string | undefined): boolean {
  return /^zh\b/i.test(locale ?? "");
}

export function sayIn(locale: string | undefined): Say {
  return isChineseLocale(locale) ? (_english, chinese) => chinese : (en) => en;
}

const LISTS = {
  or: { en: new Intl.ListFormat("en-GB", { type: "disjunction" }), zh: new Intl.ListFormat("zh-CN", { type: "disjunction" }) },
  and: { en: new Intl.ListFormat("en-GB", { type: "conjunction" }), zh: new Intl.ListFormat("zh-CN", { type: "conjunction" }) },
};

/** Names as one list in a sentence: "SOUL.md, USER.md or MEMORY.md", "SOUL.md、USER.md或MEMORY.md". */
export function listIn(names: readonly string[], joiner: "or" | "and", say: Say): string {
  return say(LISTS[joiner].en.format(names), LISTS[joiner].zh.format(names));
}
