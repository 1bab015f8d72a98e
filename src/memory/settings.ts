import { z } from "zod";
import { isValidTimeZone } from "../lib/time.js";
import { err, ok, type Result } from "../lib/result.js";
import { MAX_PRIVATE_SECTIONS, privateSectionList, SECTION_KEY_CHARS } from "./visibility.js";

/**
 * A person's settings.json: one schema, read by every reader (the store, an import, the web page's
 * form through saveSettings), so a setting added here is kept by an export and its restore alike.
 */

/** A language tag such as en, zh-CN or pt-BR (bounded: linear). */
const LOCALE = /^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{2,8}){0,3}$/;

/** Which of the model's writes wait for the person's OK: none, USER.md and SOUL.md, or every file. */
const askBeforeSaving = z.enum(["off", "profile", "all"]);
/** The nightly tidy-up: on (changes are made, one undo away), ask (they become proposals) or off. */
const tidyUp = z.enum(["on", "ask", "off"]);
/** Where the tidy-up's notice goes: the first reply of the next conversation (default) or a DM. */
const tidyNotice = z.enum(["reply", "dm"]);

/** Each setting's shape. A time zone is checked against the zones this Node knows where it is set or imported. */
const FIELDS = {
  timezone: z.string().min(1).max(100),
  locale: z.string().regex(LOCALE),
  askBeforeSaving,
  tidyUp,
  tidyNotice,
  /** Sections kept out of public places (sectionKey of each name), in USER.md and MEMORY.md. */
  privateSections: z.array(z.unknown()).transform((names) => privateSectionList(names)!),
};

const SETTINGS = z.object(FIELDS).partial();
export type Settings = z.output<typeof SETTINGS>;
export type AskBeforeSaving = z.infer<typeof askBeforeSaving>;
export type TidyUpSetting = z.infer<typeof tidyUp>;
export type TidyNoticePlace = z.infer<typeof tidyNotice>;
export const ASK_BEFORE_SAVING: readonly AskBeforeSaving[] = askBeforeSaving.options;
export const TIDY_UP: readonly TidyUpSetting[] = tidyUp.options;
export const TIDY_NOTICE: readonly TidyNoticePlace[] = tidyNotice.options;
type SettingName = keyof typeof FIELDS;

/** Whether a tidy-up's changes wait for the person's OK: tidy_up:ask, or ask before saving on for any file. */
export function tidyAsksFirst(settings: Settings): boolean {
  return settings.tidyUp === "ask" || (settings.askBeforeSaving ?? "off") !== "off";
}

/**
 * An imported settings file longer than this is refused: room for every file an export holds, the
 * most private sections at the longest key, each character escaped by JSON (6 characters), and
 * the other settings. The stored one has no such limit: it is written by the store alone, and
 * reading it as empty would make every private section public.
 */
const IMPORTED_MAX_CHARS = MAX_PRIVATE_SECTIONS * (SECTION_KEY_CHARS * 6 + 8) + 2_000;

function jsonObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The stored settings.json, each setting kept if it has its shape and left out if not (a file
 * edited by hand loses a bad setting, never the others). A stored time zone that this Node does
 * not know is kept, so the store can warn about it and use the default.
 */
export function readStoredSettings(text: string): Settings {
  const settings: Record<string, unknown> = {};
  // No file (a new person, most people): nothing to parse.
  if (text === "") return settings;
  const value = jsonObject(text) ?? {};
  for (const name of Object.keys(FIELDS) as SettingName[]) {
    if (value[name] === undefined) continue;
    const field = FIELDS[name].safeParse(value[name]);
    if (field.success) settings[name] = field.data;
  }
  return settings as Settings;
}

export type SettingsProblem = { problem: "json" } | { problem: SettingName; value: string };

/** Imported settings: every one present must have its shape (and a time zone be one this Node knows), or the file is refused. */
export function parseImportedSettings(text: string): Result<Settings, SettingsProblem> {
  const value = text.length > IMPORTED_MAX_CHARS ? undefined : jsonObject(text);
  if (!value) return err({ problem: "json" });
  const strict = SETTINGS.extend({ timezone: FIELDS.timezone.refine(isValidTimeZone).optional() });
  const parsed = strict.safeParse(value);
  if (parsed.success) return ok(parsed.data);
  const name = parsed.error.issues[0]!.path[0] as SettingName;
  return err({ problem: name, value: String(value[name]).slice(0, 60) });
}
