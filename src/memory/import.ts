import { type InstructionKind, instructionInPiece, instructionPieces } from "./instructions.js";
import { rm, stat } from "node:fs/promises";
import { join } from "node:path";
import { TimeSlices } from "../lib/time-slices.js";
import { writeFileAtomic } from "./atomic-write.js";
import { dateOfConversation } from "./conversation-log.js";
import type { JournalEntry, SectionChange } from "./journal.js";
import { readTextIfExistsSync } from "./memory-file.js";
import type { MemoryStore } from "./memory-store.js";
import { parseImportedSettings, type Settings, type SettingsProblem } from "./settings.js";
import { CAPS, kindOfLabel, PRIVATE_SECTION_LABELS } from "./file-kinds.js";
import { checkContent } from "./safety.js";
import { findSecret, type SecretFinding } from "./secrets.js";
import { diffSections } from "./section-changes.js";
import { parseSections } from "./sections.js";
import { IMPORT_LIMITS, isJournalled } from "./import-bundle.js";
import { claimPath } from "./import-uploads.js";
import { countChars } from "../lib/text.js";
import { dateOfLog } from "../lib/time.js";
import { MAX_PRIVATE_SECTIONS, sectionKeysOf } from "./visibility.js";
import { roomFor, type StorageFull } from "./storage-quota.js";

type ImportStatus = "new" | "changed" | "same" | "refused";

/** Why one file of an import will not be written. */
export type FileProblem =
  | { kind: "not-memory" }
  | { kind: "bad-date"; date: string }
  | { kind: "too-large"; bytes: number; limit: number }
  | { kind: "long-line"; line: number; limit: number }
  | { kind: "too-many-sections"; sections: number; limit: number }
  | { kind: "unsafe"; detail: string }
  | { kind: "over-cap" }
  | ({ kind: "bad-settings" } & SettingsProblem);

/** A section an import would add, replace or remove, and the first words of its text. */
export interface SectionPreview {
  change: "added" | "replaced" | "removed";
  /** "" for the text before the first heading. */
  name: string;
  /** An added or removed section: its first words. */
  words: string;
  /** A replaced section: the first lines it takes out and puts in (first words of each, at most two a side). */
  removedLines?: string[];
  addedLines?: string[];
}

export interface ImportedFile {
  label: string;
  status: ImportStatus;
  chars: number;
  cap?: number;
  sections: number;
  problem?: FileProblem;
  /** Imported all the same, but worth saying: it looks like it holds a secret. */
  secret?: SecretFinding;
  /** A memory file or log that would change: its first sections that would be added, replaced or removed. */
  changes?: SectionPreview[];
  /** How many more sections would change than `changes` names. */
  moreChanges?: number;
  /**
   * Sections it adds or replaces whose text reads as an instruction to the assistant (names, at most
   * 20; "" for the text before the first heading): the preview says so, and only the person's Import saves them.
   */
  instructions?: string[];
  /** settings.json: the settings it changes, and as `privateSections` only the marks it adds (an import takes none away). */
  settings?: Settings;
  /** settings.json: private marks it holds that did not fit (MAX_PRIVATE_SECTIONS). */
  marksLeftOut?: number;
}

export interface ImportPlan {
  /** Every file of the upload, settings.json included, by label. */
  files: ImportedFile[];
  /** The texts to write, by label (refused and unchanged files left out). */
  writes: Record<string, string>;
  /** The settings to save (settings.json, when it changes them): `privateSections` is the person's marks and the import's. */
  settings?: Settings;
}

const capOf = (label: string): number | undefined => {
  const kind = kindOfLabel(label);
  return kind === undefined || (kind === "daily" && !/^daily\/\d/.test(label)) ? undefined : CAPS[kind];
};

/**
 * What an import would change, checked as a person's own edit would be (control characters,
 * caps), plus the import's own limits (size, line length, real dates). One file at a time,
 * pausing between steps: each step is bounded by the per-file limit.
 */
export async function planImport(memory: MemoryStore, files: Record<string, string>, slices = new TimeSlices()): Promise<ImportPlan> {
  const plan: ImportPlan = { files: [], writes: {} };
  for (const [label, raw] of Object.entries(files).sort(([a], [b]) => a.localeCompare(b))) {
    await slices.pause();
    // Last, with the memory files as the import leaves them (which marks name a section).
    if (label === "settings.json") continue;
    const text = raw.includes("\r\n") ? raw.split("\r\n").join("\n") : raw;
    const file = await planFile(memory, label, text, slices);
    plan.files.push(file);
    if (file.status === "new" || file.status === "changed") plan.writes[label] = text;
  }
  if (files["settings.json"] !== undefined) {
    planSettings(memory, files["settings.json"], plan);
    // Listed in the upload's order, as every other file.
    plan.files.sort((a, b) => a.label.localeCompare(b.label));
  }
  return plan;
}

async function planFile(memory: MemoryStore, label: string, text: string, slices: TimeSlices): Promise<ImportedFile> {
  const cap = capOf(label);
  const file: ImportedFile = { label, status: "refused", chars: 0, ...(cap ? { cap } : {}), sections: 0 };
  const path = pathFor(memory, label);
  const bytes = Buffer.byteLength(text);
  const longLine = firstLongLine(text, IMPORT_LIMITS.lineChars);
  if (!path) file.problem = path === null ? { kind: "bad-date", date: dateInLabel(label)! } : { kind: "not-memory" };
  else if (bytes > IMPORT_LIMITS.fileBytes) file.problem = { kind: "too-large", bytes, limit: IMPORT_LIMITS.fileBytes };
  else if (longLine) file.problem = { kind: "long-line", line: longLine, limit: IMPORT_LIMITS.lineChars };
  if (file.problem) return { ...file, chars: text.length };
  // Each step is bounded now (the per-file limit); the loop is handed back between them.
  await slices.pause();
  file.chars = countChars(text);
  await slices.pause();
  file.sections = parseSections(text).sections.length;
  await slices.pause();
  const safe = await inPieces(text, slices, (piece) => {
    const verdict = checkContent(piece, "person");
    return verdict.ok ? undefined : verdict;
  });
  const secret = await inPieces(text, slices, findSecret);
  if (safe) file.problem = { kind: "unsafe", detail: safe.reason };
  else if (cap !== undefined && file.chars > cap) file.problem = { kind: "over-cap" };
  else if (isJournalled(label) && file.sections > IMPORT_LIMITS.sections)
    file.problem = { kind: "too-many-sections", sections: file.sections, limit: IMPORT_LIMITS.sections };
  if (secret) file.secret = secret;
  if (file.problem) return file;
  await slices.pause();
  const current = readTextIfExistsSync(path!);
  file.status = current === undefined ? "new" : current === text ? "same" : "changed";
  if (file.status !== "same" && isJournalled(label)) {
    const changes = diffSections(label, current ?? null, text);
    file.changes = changes.slice(0, PREVIEWED_SECTIONS).map(sectionPreview);
    if (changes.length > PREVIEWED_SECTIONS) file.moreChanges = changes.length - PREVIEWED_SECTIONS;
    // Notes, not orders: a section that would read as an instruction is named however far down it is (SOUL.md may say who the assistant is).
    const instructions: string[] = [];
    for (const change of changes) {
      if (change.after === null || instructions.length >= MAX_NAMED_INSTRUCTIONS) continue;
      // Read whole, however long (a daily archive has no cap); SOUL.md may say who the assistant is, and nothing more.
      if (await orderIn(change.after, label === "SOUL.md" ? "identity" : undefined, slices)) instructions.push(change.section);
      await slices.pause();
    }
    if (instructions.length > 0) file.instructions = instructions;
  }
  return file;
}

/** Whether a section reads as an instruction (instructionInAll), a piece at a time, handing the loop back between pieces: an archived day may be a megabyte. */
async function orderIn(text: string, allowed: InstructionKind | undefined, slices: TimeSlices): Promise<boolean> {
  for (const piece of instructionPieces(text)) {
    if (instructionInPiece(piece, allowed)) return true;
    await slices.pause();
  }
  return false;
}

/**
 * `check` over a file of up to 1 MB, a piece of about 8,000 characters of whole lines at a time, handing the
 * loop back between pieces (both checks take tens of ms on a whole worst-case file). Pieces end
 * after a line feed, and lines are at most IMPORT_LIMITS.lineChars, so nothing a check looks for
 * within a line (a key, a "\r" without "\n", an emoji sequence) is cut in two.
 */
async function inPieces<T>(text: string, slices: TimeSlices, check: (piece: string) => T | undefined): Promise<T | undefined> {
  // A few milliseconds of checks a piece, the first (not yet optimised) one included.
  const PIECE = 8_000;
  for (let start = 0; start < text.length; ) {
    const cut = start + PIECE >= text.length ? text.length : text.lastIndexOf("\n", start + PIECE) + 1;
    // A line longer than a piece (lines reach IMPORT_LIMITS.lineChars) is taken whole, to its end.
    const lineEnd = text.indexOf("\n", start + PIECE);
    const end = cut > start ? cut : lineEnd === -1 ? text.length : lineEnd + 1;
    const found = check(text.slice(start, end));
    if (found !== undefined) return found;
    start = end;
    await slices.pause();
  }
  return undefined;
}

const MAX_NAMED_INSTRUCTIONS = 20;

/** Sections named per file in a preview; the rest are counted. */
const PREVIEWED_SECTIONS = 10;

/** A section an import would add, replace or remove, with its first words. */
function sectionPreview(change: SectionChange): SectionPreview {
  const bodyOf = (text: string) => (change.section === "" ? text : text.slice(text.indexOf("\n") + 1 || text.length));
  if (change.before !== null && change.after !== null) {
    // The lines that differ, not the section's start: what the person is asked to accept is the change.
    // Compared as sets of lines (linear; a section can be a megabyte), the first two of each side shown.
    const before = bodyOf(change.before).split("\n");
    const after = bodyOf(change.after).split("\n");
    const had = new Set(before);
    const has = new Set(after);
    const lines = (from: string[], other: Set<string>) =>
      from
        .filter((line) => line.trim() !== "" && !other.has(line))
        .slice(0, PREVIEW_LINES)
        .map(firstWords);
    return { change: "replaced", name: change.section, words: "", removedLines: lines(before, has), addedLines: lines(after, had) };
  }
  const kind = change.before === null ? "added" : "removed";
  return { change: kind, name: change.section, words: firstWords(bodyOf(change.after ?? change.before ?? "")) };
}

/** Lines a replaced section's preview shows of each side. */
const PREVIEW_LINES = 2;

const FIRST_WORDS = 8;
const FIRST_CHARS = 60;

/** The first words of a text on one line, cut with "…"; Chinese (no spaces) is cut by length. */
export function firstWords(text: string): string {
  // Only the start is split (one class, linear): a section can be a megabyte.
  const start = text.trimStart();
  const words = start
    .slice(0, FIRST_CHARS * 4)
    .split(/\s+/)
    .filter((w) => w !== "");
  let shown = words.slice(0, FIRST_WORDS).join(" ");
  const more = words.length > FIRST_WORDS || start.trimEnd().length > FIRST_CHARS * 4;
  if (countChars(shown) > FIRST_CHARS) shown = [...shown].slice(0, FIRST_CHARS).join("");
  else if (!more) return shown;
  return `${shown}…`;
}

/** The first line (from 1) longer than `limit` characters, or 0. */
function firstLongLine(text: string, limit: number): number {
  let line = 1;
  for (let start = 0; start <= text.length; line++) {
    const newline = text.indexOf("\n", start);
    const end = newline === -1 ? text.length : newline;
    if (end - start > limit) return line;
    if (newline === -1) return 0;
    start = newline + 1;
  }
  return 0;
}

/** The yyyy-MM-dd a log's or conversation's label names, if any. */
function dateInLabel(label: string): string | undefined {
  const name = label.slice(label.lastIndexOf("/") + 1);
  return label.startsWith("conversations/") ? dateOfConversation(name) : dateOfLog(name);
}

/** A date that exists on the calendar (no 2026-02-30, no month 13). */
function isRealDate(date: string): boolean {
  const [year, month, day] = date.split("-").map(Number) as [number, number, number];
  const parsed = new Date(Date.UTC(year, month - 1, day));
  return parsed.getUTCFullYear() === year && parsed.getUTCMonth() === month - 1 && parsed.getUTCDate() === day;
}

/**
 * The path of a label an import may write; undefined for anything else (refused before any
 * path is built), null for a log or conversation dated on a day that does not exist.
 */
function pathFor(memory: MemoryStore, label: string): string | undefined | null {
  let path: string | undefined;
  if (label.startsWith("conversations/")) {
    const name = /^conversations\/(\d{4}-\d{2}-\d{2}-[\p{L}\p{N}-]{1,60}\.md)$/u.exec(label)?.[1];
    path = name === undefined ? undefined : join(memory.conversationsDir, name);
  } else {
    try {
      path = memory.pathOf(label);
    } catch {
      path = undefined;
    }
  }
  const date = dateInLabel(label);
  return path !== undefined && date !== undefined && !isRealDate(date) ? null : path;
}

function planSettings(memory: MemoryStore, text: string, plan: ImportPlan): void {
  const file: ImportedFile = { label: "settings.json", status: "refused", chars: text.length, sections: 0 };
  plan.files.push(file);
  const parsed = parseImportedSettings(text);
  if (!parsed.ok) {
    file.problem = { kind: "bad-settings", ...parsed.error };
    return;
  }
  const current = memory.readSettings();
  const { privateSections: marks, ...others } = parsed.value;
  const changes: Settings = Object.fromEntries(Object.entries(others).filter(([name, value]) => current[name as keyof Settings] !== value));
  // An import adds private marks and takes none away: a backup made before a section was marked
  // would otherwise make that section public again, and settings are not in the journal to undo.
  const kept = current.privateSections ?? [];
  // Past MAX_PRIVATE_SECTIONS, the marks of sections the files will have come first, and the
  // preview says how many did not fit (the person's own marks are never taken away for them).
  const texts = PRIVATE_SECTION_LABELS.map((label) => plan.writes[label] ?? readTextIfExistsSync(join(memory.dir, label)) ?? "");
  const wanted = (marks ?? []).filter((key) => !kept.includes(key));
  const named = sectionKeysOf(texts);
  const ordered = [...wanted.filter((key) => named.has(key)), ...wanted.filter((key) => !named.has(key))];
  const room = Math.max(0, MAX_PRIVATE_SECTIONS - kept.length);
  const added = ordered.slice(0, room);
  if (ordered.length > room) file.marksLeftOut = ordered.length - room;
  // What the preview shows: what changes, the marks it adds.
  file.settings = { ...changes, ...(added.length > 0 ? { privateSections: added } : {}) };
  const exists = readTextIfExistsSync(join(memory.dir, "settings.json")) !== undefined;
  file.status = !exists ? "new" : Object.keys(file.settings).length === 0 ? "same" : "changed";
  if (file.status !== "same") plan.settings = { ...changes, ...(added.length > 0 ? { privateSections: [...kept, ...added] } : {}) };
}

export interface ImportOutcome {
  /** The plan as it was applied (made again under the person's lock: the files may have changed since a preview). */
  plan: ImportPlan;
  /** The journal entry of the memory files and logs (one undo takes them back), if any changed. */
  entry?: JournalEntry;
}

/**
 * Writes an import: memory files and logs as one journalled change, then conversations, then settings.
 * With `claim` (the token of an upload takeUpload claimed): refused when the claim is gone, because a
 * forget or a delete-all ran since the upload was taken (they empty pending/), and what they removed
 * may be in it. Checked under the person's lock, which forgets take too, in every process.
 */
/** An import held whole, nothing written: its plan names sections that read as instructions (ImportFile.instructions). */
export interface ImportHeld {
  held: ImportPlan;
}

export async function applyImport(memory: MemoryStore, files: Record<string, string>, now?: Date): Promise<ImportOutcome | { full: StorageFull }>;
export async function applyImport(
  memory: MemoryStore,
  files: Record<string, string>,
  now: Date,
  options: { holdInstructions: true },
): Promise<ImportOutcome | ImportHeld | { full: StorageFull }>;
export async function applyImport(
  memory: MemoryStore,
  files: Record<string, string>,
  now: Date,
  options: { claim: string },
): Promise<ImportOutcome | { forgotten: true } | { full: StorageFull }>;
/**
 * Under the person's lock: the import planned again and written as one journal entry. With a
 * `claim`, only while the claim a preview left is still there (a forget removes it); with
 * `holdInstructions` (an import nobody previewed), nothing is written when a section would read
 * as an instruction to the assistant: the person's Save is their confirming a preview that marks it.
 */
export async function applyImport(
  memory: MemoryStore,
  files: Record<string, string>,
  now = new Date(),
  options: { claim?: string; holdInstructions?: boolean } = {},
): Promise<ImportOutcome | ImportHeld | { forgotten: true } | { full: StorageFull }> {
  const slices = new TimeSlices();
  return memory.serialize(async (): Promise<ImportOutcome | ImportHeld | { forgotten: true } | { full: StorageFull }> => {
    if (options.claim !== undefined) {
      const claim = claimPath(memory, options.claim);
      if (!(await stat(claim).catch(() => undefined))) return { forgotten: true };
      await rm(claim, { force: true });
    }
    const plan = await planImport(memory, files, slices);
    // Measured again under the lock: the preview's figure may be out of date.
    const full = await importRoom(memory, plan);
    if (full) return { full };
    if (options.holdInstructions && plan.files.some((file) => file.instructions !== undefined)) return { held: plan };
    const writes = Object.entries(plan.writes);
    const journalled = writes.filter(([label]) => isJournalled(label)).map(([label, text]) => ({ label, text }));
    const entry = journalled.length > 0 ? await memory.commit({ kind: "person" }, "import", journalled, { now }) : undefined;
    for (const [label, text] of writes) {
      if (isJournalled(label)) continue;
      await writeFileAtomic(pathFor(memory, label)!, text);
      await slices.pause();
    }
    // Under the same lock (it is taken again in place): a forget or a delete-all waiting for it
    // comes after the settings too, and removes what they bring.
    if (plan.settings) await memory.saveSettings(plan.settings);
    return { plan, ...(entry ? { entry } : {}) };
  });
}

/**
 * Refuses an import that would take the person past their storage quota. What it adds: each
 * file's new size less what it replaces, and for memory files and logs also the journal entry
 * (which holds both texts, so one undo can take the import back).
 */
export async function importRoom(memory: MemoryStore, plan: ImportPlan): Promise<StorageFull | undefined> {
  let adds = 0;
  for (const [label, text] of Object.entries(plan.writes)) {
    const path = pathFor(memory, label);
    const before = path ? ((await stat(path).catch(() => undefined))?.size ?? 0) : 0;
    const after = Buffer.byteLength(text);
    adds += isJournalled(label) ? after + before + (after - before) : after - before;
  }
  return roomFor(memory, adds);
}
