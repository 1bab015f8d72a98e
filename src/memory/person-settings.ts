/**
 * A person's settings.json: read leniently (settings.ts's schema), written under their lock, and a
 * count of this process's saves by folder, so a turn's copy of the settings knows when it is stale.
 * MemoryStore's settings methods are these, for its person.
 */
import { join } from "node:path";
import { err, ok, type Result } from "../lib/result.js";
import { isValidTimeZone } from "../lib/time.js";
import { writeFileAtomic } from "./atomic-write.js";
import { readTextIfExistsSync } from "./memory-file.js";
import { withPersonLock } from "./person-lock.js";
import { readStoredSettings, type Settings } from "./settings.js";
import { MAX_PRIVATE_SECTIONS, sectionKey } from "./visibility.js";

/** Settings saves in this process, by person folder: a turn's copy of the settings is stale once this moves. */
const settingsSaved = new Map<string, number>();
export const settingsGeneration = (dir: string): number => settingsSaved.get(dir) ?? 0;

/** Read synchronously like the snapshot's files (a few bytes, no thread-pool queue). */
export function settingsFromDisk(dir: string): Settings {
  return readStoredSettings(readTextIfExistsSync(join(dir, "settings.json")) ?? "");
}

/** Under the person's lock. */
async function writeSettings(dir: string, settings: Settings): Promise<void> {
  await writeFileAtomic(join(dir, "settings.json"), `${JSON.stringify(settings, null, 2)}\n`);
  settingsSaved.set(dir, settingsGeneration(dir) + 1);
}

/** Merges settings; an unknown time zone name is refused and nothing is written. */
export async function saveSettings(dir: string, patch: Settings): Promise<Result<Settings, { problem: "timezone"; value: string }>> {
  if (patch.timezone !== undefined && !isValidTimeZone(patch.timezone)) return err({ problem: "timezone", value: patch.timezone });
  // settings.json is not searched: no index work.
  return withPersonLock(dir, async () => {
    const settings = { ...settingsFromDisk(dir), ...patch };
    await writeSettings(dir, settings);
    return ok(settings);
  });
}

/**
 * Marks a section private (kept out of public places) or not, by name, for USER.md and MEMORY.md.
 * "too-many" when MAX_PRIVATE_SECTIONS are marked already; "unchanged" when it already was so.
 */
export async function markPrivate(dir: string, section: string, isPrivate: boolean): Promise<"changed" | "unchanged" | "too-many"> {
  const key = sectionKey(section);
  return withPersonLock(dir, async () => {
    const settings = settingsFromDisk(dir);
    const marked = settings.privateSections ?? [];
    if (marked.includes(key) === isPrivate) return "unchanged";
    if (isPrivate && marked.length >= MAX_PRIVATE_SECTIONS) return "too-many";
    const privateSections = isPrivate ? [...marked, key] : marked.filter((name) => name !== key);
    await writeSettings(dir, { ...settings, privateSections });
    return "changed";
  });
}
