import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { systemWriter } from "../memory/memory-file.js";
import type { MemoryStore } from "../memory/memory-store.js";
import { CAPS } from "../memory/file-kinds.js";
import { addToSection, parseSections, serializeSections } from "../memory/sections.js";
import { countChars } from "../lib/text.js";
import { stripControlCharacters } from "../memory/safety.js";
import { maskSecrets } from "../memory/secrets.js";
import type { ModelClient } from "../model/model-client.js";
import { isPublicEntry, PUBLIC_MARK, type Visibility } from "../memory/visibility.js";
import { forgetPublicEntriesOf, notePublicEntry } from "../memory/public-entries.js";

const SUMMARY = systemWriter("summary of a conversation").by;
const CONDENSE = systemWriter("condensed the day's log").by;

export interface DailyEntry {
  date: string;
  heading: string;
  summary: string;
  /**
   * A retried close (its summary was kept from an earlier attempt): its entry may be written
   * already, under its heading or a numbered one, and is then not written again.
   */
  retry?: boolean;
  /** The server whose public thread the conversation was in: the entry reaches that server's public places only. */
  publicIn?: string;
}

/**
 * Section name of a daily entry: `HH:mm · <title>`, then PUBLIC_MARK when the conversation was in a
 * public place (titles lose characters a heading can't hold, and the mark: a title cannot claim it).
 */
export function entryHeading(time: string, title: string, visibility: Visibility): string {
  const clean =
    title
      .replaceAll(PUBLIC_MARK, " ")
      .replace(/[#\r\n]+/g, " ")
      .replace(/\s+/g, " ")
      .trim()
      .slice(0, 60) || "conversation";
  return `${time} · ${clean}${visibility === "public" ? ` ${PUBLIC_MARK}` : ""}`;
}

/** `wanted`, or `wanted (n)`: the headings one entry may have been written under. */
function isHeadingOf(name: string, wanted: string): boolean {
  if (name === wanted) return true;
  const number = name.startsWith(`${wanted} (`) && name.endsWith(")") ? name.slice(wanted.length + 2, -1) : "";
  return number !== "" && [...number].every((c) => c >= "0" && c <= "9");
}

/**
 * Appends a session summary to the day's log. When the log would pass its cap, the model
 * condenses the day (the original goes to the archive first); if that fails, the newest
 * entries that fit stay and the rest move verbatim to the archive. Nothing is lost.
 * A retried close finds its entry in the log or its archive and does not write it twice.
 */
export async function appendDailyEntry(store: MemoryStore, entry: DailyEntry, model: ModelClient): Promise<void> {
  const log = store.daily(entry.date);
  // A summary is kept whatever the model wrote; invisible characters are dropped and secrets masked
  // (the log reaches every later prompt).
  const summary = asBodyText(maskSecrets(stripControlCharacters(entry.summary)).trim());
  const wanted = maskSecrets(stripControlCharacters(entry.heading));
  // Reading the day, choosing a free heading and writing it happen under the person's lock, so two
  // sessions of one title closing in the same minute (two threads, two shards) get two entries.
  const full = await store.serialize(async (): Promise<{ before: string; block: string } | undefined> => {
    const before = await log.read();
    // The archive counts too: it tells entries apart by heading.
    const archived = await readFile(join(store.archiveDir, `${entry.date}.md`), "utf8").catch(() => "");
    const sections = [before, archived].flatMap((text) => parseSections(text.replace(/\r\n/g, "\n")).sections);
    // Only a retry looks for its summary: another session may well have been summed up in the same words.
    if (entry.retry && sections.some((s) => isHeadingOf(s.name, wanted) && s.body.trim() === summary)) return undefined;
    const taken = new Set(sections.map((s) => s.name));
    let heading = wanted;
    for (let n = 2; taken.has(heading); n++) heading = `${wanted} (${n})`;
    const block = `## ${heading}\n${summary}\n`;
    // Noted before it is written, whichever way it is: a note of an entry that never lands shows nothing.
    if (entry.publicIn && isPublicEntry(heading)) await notePublicEntry(store.dir, entry.date, heading, entry.publicIn);
    // Surely over the cap: decided before addToSection, whose trimming is not linear on a model's long blanks.
    if (countChars(before) + countChars(block) > CAPS.daily) return { before, block };
    const added = addToSection(parseSections(before), heading, summary);
    if (!added.ok) throw new Error(`${log.label}: ${added.error}`);
    const after = serializeSections(added.value.doc);
    if (countChars(after) > CAPS.daily) return { before, block };
    await store.commit(SUMMARY, "add", [{ label: log.label, text: after }]);
    return undefined;
  });
  if (!full) return;
  const { before, block } = full;

  const condensed = await condenseDay(model, before, block).catch(() => undefined);
  const written = await store.serialize(async () => {
    if ((await log.read()) !== before || condensed === undefined) return false;
    // The archive gets the day's originals it lacks, the new entry included; the log keeps the condensed day.
    // The model may move words between entries: none of the day's reaches a public place any more
    // (forgotten first: a crash between the two leaves entries hidden, never mixed and shown).
    await forgetPublicEntriesOf(store.dir, entry.date);
    await store.commit(CONDENSE, "condense", [store.archiveWrite(entry.date, withBreak(before) + block), { label: log.label, text: condensed }]);
    return true;
  });
  if (written) return;
  await store.serialize(async () => {
    const current = await log.read();
    const { kept, moved } = keepNewest(current, block, CAPS.daily);
    const archived = moved ? [store.archiveWrite(entry.date, withBreak(moved))] : [];
    await store.commit(CONDENSE, "condense", [...archived, { label: log.label, text: kept }]);
  });
}

/**
 * A summary as the body of its entry: a line the model began with "#" or a code fence would make
 * a section of its own (a duplicate heading the model's tools and /memory remove cannot tell
 * apart) or hide the entries after it, so it is written with a leading "\" (Markdown shows it the same).
 */
function asBodyText(text: string): string {
  return text
    .split("\n")
    .map((line) => (/^ {0,3}(?:#|```|~~~)/.test(line) ? `\\${line.trimStart()}` : line))
    .join("\n");
}

/**
 * Whether a condensed day's headings are some of the day's own, each once, in their order: the
 * model may shorten the log (the archive keeps every original) but never add, rename or repeat an
 * entry, which would leave two sections that history and tools cannot tell apart.
 */
function keepsHeadings(condensed: string, original: string): boolean {
  const wanted = parseSections(original).sections.map((section) => section.name);
  let at = 0;
  for (const { name } of parseSections(condensed).sections) {
    while (at < wanted.length && wanted[at] !== name) at++;
    if (at === wanted.length) return false;
    at++;
  }
  return true;
}

async function condenseDay(model: ModelClient, log: string, block: string): Promise<string | undefined> {
  const limit = Math.floor(CAPS.daily * 0.8);
  const { content: answer } = await model.complete([
    {
      role: "system",
      content: `You condense a personal daily log. Keep every "## HH:mm · title" heading, in order, each followed by one short sentence. Stay under ${limit} characters. Answer with the log only.`,
    },
    { role: "user", content: `${log.trim()}\n\n${block}` },
  ]);
  const text = `${maskSecrets(answer.trim())}\n`;
  const original = `${log.trim()}\n\n${block}`;
  const valid = countChars(text) <= CAPS.daily && parseSections(text).sections.length > 0 && keepsHeadings(text, original);
  if (!valid) return undefined;
  // The model may fold a private entry's words into a public one: a day of both kinds is no longer public.
  const mixed = parseSections(original).sections.some((s) => !isPublicEntry(s.name));
  return mixed
    ? text
        .split("\n")
        .map((line) => (line.startsWith("## ") ? line.replaceAll(PUBLIC_MARK, "").trimEnd() : line))
        .join("\n")
    : text;
}

/** Keeps the newest entries (sections) that fit the cap, newest entry always included. */
function keepNewest(current: string, block: string, cap: number): { kept: string; moved: string } {
  const doc = parseSections(current);
  const parts = [doc.preamble, ...doc.sections.map((s) => s.heading + s.body)].filter((p) => p !== "");
  let kept = countChars(block) <= cap ? block : cutBlock(block, cap);
  const moved: string[] = countChars(block) <= cap ? [] : [block];
  let i = parts.length - 1;
  for (; i >= 0; i--) {
    const candidate = withBreak(parts[i]!) + kept;
    if (countChars(candidate) > cap) break;
    kept = candidate;
  }
  moved.unshift(...parts.slice(0, i + 1).map(withBreak));
  return { kept: serializeSections(parseSections(kept)), moved: moved.join("") };
}

function cutBlock(block: string, cap: number): string {
  const marker = "\n[… the full entry is in the archive]\n";
  return (
    [...block]
      .slice(0, cap - countChars(marker))
      .join("")
      .trimEnd() + marker
  );
}

function withBreak(text: string): string {
  return text.endsWith("\n") ? text : `${text}\n`;
}
