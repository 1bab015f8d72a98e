/**
 * The one owner of the front ends' two languages: every line a person reads is written as
 * `say(english, chinese)`, and the locale (Discord's, the person's setting, the terminal's LANG)
 * picks one.
 */
export type Say = (english: string, chinese: string) => string;

export const english: Say = (en) => en;

export function isChineseLocale(locale: string | undefined): boolean {
  return /^zh\b/i.test(locale ?? "");
}

export function sayIn(locale: string | undefined): Say {
  return isChineseLocale(locale) ? (_english, chinese) => chinese : (en) => en;
}
