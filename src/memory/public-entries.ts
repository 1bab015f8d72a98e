import { createHash } from "node:crypto";
import { statSync } from "node:fs";
import { LRUCache } from "lru-cache";
import { join } from "node:path";
import { writeFileAtomic } from "./atomic-write.js";
import { readTextIfExistsSync } from "./memory-file.js";

/**
 * Which server each public entry of the daily logs came from: a public thread is read by that
 * server's members, not another's, so an entry marked 🌐 reaches only the public places of its
 * own server. Kept beside the logs as hashes of date and heading (no words: a forgotten title
 * leaves nothing here), for the days the prompt and the tools read. An entry this file does not
 * name (older, imported, renamed by hand, condensed) reaches no public place.
 */
const FILE = "public-entries.json";
/** Entries older than this (from the newest one noted) are dropped: the prompt reads two days. */
const KEPT_DAYS = 14;
const MAX_ENTRIES = 500;

interface Noted {
  key: string;
  date: string;
  guild: string;
}

/** Whether a daily entry (its log's date and its heading) may be shown in a public place. */
export type EntryHere = (date: string, heading: string) => boolean;

const keyOf = (date: string, heading: string) => createHash("sha256").update(`${date}\n${heading.trim()}`).digest("hex").slice(0, 32);

/** The file as last parsed, by person: a session opens with a stat, not a parse (it is rewritten whole, so a new stamp). */
const parsedFiles = new LRUCache<string, { stamp: string; notes: Noted[] }>({ max: 2_000 });

function read(dir: string): Noted[] {
  const path = join(dir, FILE);
  const stats = statSync(path, { bigint: true, throwIfNoEntry: false });
  if (!stats) return [];
  const stamp = `${stats.ino}:${stats.size}:${stats.mtimeNs}`;
  const known = parsedFiles.get(path);
  if (known?.stamp === stamp) return known.notes;
  let notes: Noted[] = [];
  try {
    const parsed: unknown = JSON.parse(readTextIfExistsSync(path) ?? "[]");
    if (Array.isArray(parsed))
      notes = parsed.filter((n): n is Noted => typeof n?.key === "string" && typeof n.date === "string" && typeof n.guild === "string");
  } catch {
    // A broken file names no entry: nothing of it reaches a public place.
  }
  parsedFiles.set(path, { stamp, notes });
  return notes;
}

/** Notes that the entry under `heading` in the log of `date` is a public conversation of `guildId`. The caller holds the person's lock. */
export async function notePublicEntry(dir: string, date: string, heading: string, guildId: string): Promise<void> {
  const oldest = new Date(Date.parse(`${date}T00:00:00Z`) - KEPT_DAYS * 86_400_000).toISOString().slice(0, 10);
  const key = keyOf(date, heading);
  // A heading used again (its entry forgotten, or a write that failed after its note) belongs to the newest server only.
  const kept = read(dir).filter((n) => n.date >= oldest && n.key !== key);
  await write(dir, [...kept, { key, date, guild: guildId }].slice(-MAX_ENTRIES));
}

/**
 * Forgets the notes of one day's log: after the model condensed it, a heading no longer says whose
 * words its entry holds (the model may fold one server's entry into another's). The caller holds the person's lock.
 */
export async function forgetPublicEntriesOf(dir: string, date: string): Promise<void> {
  const notes = read(dir);
  const kept = notes.filter((n) => n.date !== date);
  if (kept.length !== notes.length) await write(dir, kept);
}

async function write(dir: string, notes: Noted[]): Promise<void> {
  await writeFileAtomic(join(dir, FILE), `${JSON.stringify(notes)}\n`);
}

/** The entries a public place of `guildId` may see (none without a server). Read once, when called. */
export function entriesOfServer(dir: string, guildId: string | undefined): EntryHere {
  if (!guildId) return () => false;
  const here = new Set(
    read(dir)
      .filter((n) => n.guild === guildId)
      .map((n) => n.key),
  );
  return (date, heading) => here.has(keyOf(date, heading));
}
