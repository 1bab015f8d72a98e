import type { Actor, Journal, JournalEntry, SectionChange } from "./journal.js";
import type { CommitOptions, FileWrite } from "./journalled-write.js";
import { readTextIfExistsSync } from "./memory-file.js";

/** Files with a journal that an undo takes back: a person's memory, a server's notes. */
export interface JournalledFiles {
  readonly journal: Journal;
  serialize<T>(work: () => Promise<T>): Promise<T>;
  pathOf(label: string): string;
  commit(by: Actor, op: string, writes: FileWrite[], options?: CommitOptions): Promise<JournalEntry | undefined>;
}
import { diffArrays } from "diff";
import { sameSection, sectionContent, sectionText, setSection } from "./section-changes.js";
import { parseSections } from "./sections.js";

export type UndoResult =
  | { ok: true; entry: JournalEntry }
  | { ok: false; reason: "not-found"; id: string }
  | { ok: false; reason: "already-undone"; id: string; by: JournalEntry }
  | { ok: false; reason: "not-undoable"; id: string; op: string }
  /** A section changed since: by these later changes (newest first), or by hand when none. */
  | { ok: false; reason: "changed-since"; id: string; later: JournalEntry[] };

/** Changes that cannot be taken back: forgetting removed the text on purpose, history included. */
const NOT_UNDOABLE = new Set(["forget"]);

/**
 * Takes changes back: each section they touched returns to its text before them. Only when
 * every section still holds what the change left (else nothing is written and the later
 * changes that touched it are named). Several ids are undone newest first, as one change,
 * which itself can be undone.
 */
export async function undoChanges(memory: JournalledFiles, ids: readonly string[], by: Actor, now = new Date()): Promise<UndoResult> {
  return memory.serialize(async () => {
    const entries = await memory.journal.entries();
    const byId = new Map(entries.map((e) => [e.id, e]));
    // The journal's order, not the entries' times: two changes of one turn can share a millisecond.
    const order = new Map(entries.map((e, i) => [e.id, i]));
    const undoneBy = undoneMap(entries);
    const targets: JournalEntry[] = [];
    for (const id of ids) {
      const entry = byId.get(id);
      if (!entry) return { ok: false, reason: "not-found", id };
      const undone = undoneBy.get(id);
      if (undone) return { ok: false, reason: "already-undone", id, by: undone };
      if (NOT_UNDOABLE.has(entry.op) || entry.forgotten) return { ok: false, reason: "not-undoable", id, op: entry.forgotten ? "forget" : entry.op };
      targets.push(entry);
    }
    targets.sort((a, b) => order.get(b.id)! - order.get(a.id)!);
    const texts = new Map<string, string | null>();
    const textOf = (file: string) => (texts.has(file) ? texts.get(file)! : (readTextIfExistsSync(memory.pathOf(file)) ?? null));
    for (const target of targets) {
      for (const change of target.changes) {
        const current = textOf(change.file);
        const now = sectionText(current, change);
        const restored = sameSection(now, change.after) ? change.before : undoLines(now, change);
        if (restored === undefined) {
          const later = laterChanges(entries, target, change, undoneBy, new Set(ids));
          return { ok: false, reason: "changed-since", id: target.id, later };
        }
        texts.set(change.file, setSection(current, change, restored));
      }
    }
    const writes = [...texts].map(([label, text]) => ({ label, text }));
    const entry = await memory.commit(by, "undo", writes, { now, undoes: targets.map((t) => t.id) });
    // Nothing to write means the sections already read as before (e.g. a change and its reverse).
    return entry ? { ok: true, entry } : { ok: false, reason: "changed-since", id: targets[0]!.id, later: [] };
  });
}

/** A section longer than this is undone whole or not at all: a line diff of two long texts takes time. */
const MERGE_CHARS = 20_000;
/** And a diff that would need more edits than this gives up (jsdiff's maxEditLength), whatever the length. */
const MERGE_EDITS = 500;

/**
 * Takes a change back line by line from a section that changed since (a three-way merge with the
 * change's `after` as the base): each run of lines the change altered goes back to what it was,
 * provided those lines and one line either side of them (what places the run) are still as the
 * change left them and still next to each other; lines a later change made elsewhere stay. Else
 * undefined: changed since. The result must still be one section of the same name (a fence
 * opened or closed by the undo must not turn a line into a heading). A change that added or
 * removed the section whole is not merged.
 *
 * Hand-written on jsdiff's diffArrays: jsdiff's applyPatch places a hunk wherever its lines match
 * in the text, which can take back a later change's identical lines instead of this change's.
 */
function undoLines(now: string | null, change: SectionChange): string | undefined {
  if (now === null || change.before === null || change.after === null) return undefined;
  const [current, after, before] = [now, change.after, change.before].map(sectionContent) as [string, string, string];
  if (current.length > MERGE_CHARS || after.length > MERGE_CHARS || before.length > MERGE_CHARS) return undefined;
  const base = after.split("\n");
  const theirs = current.split("\n");
  const wanted = before.split("\n");
  // Where each line of the base is now, for the lines nothing changed since.
  const since = diffArrays(base, theirs, { maxEditLength: MERGE_EDITS });
  const undo = diffArrays(base, wanted, { maxEditLength: MERGE_EDITS });
  if (!since || !undo) return undefined;
  const at = new Map<number, number>();
  for (let b = 0, t = 0, i = 0; i < since.length; i++) {
    const part = since[i]!;
    if (part.added) t += part.count;
    else if (part.removed) b += part.count;
    else for (let k = 0; k < part.count; k++) at.set(b++, t++);
  }
  // The runs the change made: base lines [from, to) that go back to `lines`.
  const runs: { from: number; to: number; lines: string[] }[] = [];
  for (let b = 0, i = 0; i < undo.length; i++) {
    const part = undo[i]!;
    if (!part.added && !part.removed) {
      b += part.count;
      continue;
    }
    const last = runs.at(-1);
    const run = last && last.to === b ? last : { from: b, to: b, lines: [] as string[] };
    if (run !== last) runs.push(run);
    if (part.removed) {
      b += part.count;
      run.to = b;
    } else run.lines.push(...part.value);
  }
  const merged = [...theirs];
  // Bottom up, so each run's place in `merged` is still the one `at` gives.
  for (const run of [...runs].reverse()) {
    const first = Math.max(0, run.from - 1);
    const last = Math.min(base.length - 1, run.to);
    const place = at.get(first);
    if (place === undefined) return undefined;
    for (let k = first; k <= last; k++) if (at.get(k) !== place + (k - first)) return undefined;
    const start = run.from === 0 ? place : place + (run.from - first);
    merged.splice(start, run.to - run.from, ...run.lines);
  }
  const text = merged.join("\n");
  const parsed = parseSections(text);
  const name = change.section;
  if (name === "" ? parsed.sections.length > 0 : parsed.preamble !== "" || parsed.sections.length !== 1 || parsed.sections[0]!.name !== name) return undefined;
  return text;
}

/** Changes after `target` that touched the same section and are not undone, newest first. */
function laterChanges(
  entries: JournalEntry[],
  target: JournalEntry,
  change: SectionChange,
  undoneBy: Map<string, JournalEntry>,
  undoing: Set<string>,
): JournalEntry[] {
  const index = entries.findIndex((e) => e.id === target.id);
  return entries
    .slice(index + 1)
    .filter(
      (e) =>
        !undoneBy.has(e.id) &&
        !undoing.has(e.id) &&
        e.changes.some((c) => c.file === change.file && c.section === change.section && (c.nth ?? 0) === (change.nth ?? 0)),
    )
    .reverse();
}

/** The entries an undo may still take back, newest first. */
export function undoable(entries: readonly JournalEntry[]): JournalEntry[] {
  const undone = undoneMap(entries);
  return entries.filter((e) => !undone.has(e.id) && !NOT_UNDOABLE.has(e.op) && !e.forgotten).reverse();
}

/**
 * Which entries are undone now, and by which undo: an undo that was itself undone (a redo)
 * no longer counts, so what it had taken back is in effect again.
 */
function undoneMap(entries: readonly JournalEntry[]): Map<string, JournalEntry> {
  const undoneBy = new Map<string, JournalEntry>();
  // Newest first: whether an undo counts is known before the entries it names are reached.
  for (const e of [...entries].reverse()) {
    if (undoneBy.has(e.id)) continue;
    for (const id of e.undoes ?? []) if (!undoneBy.has(id)) undoneBy.set(id, e);
  }
  return undoneBy;
}

/** Undoes a change and, when its sections changed since, every later change in the way (a chain). */
export async function undoWithLater(memory: JournalledFiles, id: string, by: Actor, now = new Date()): Promise<UndoResult> {
  let ids = [id];
  for (let round = 0; round < 20; round++) {
    const result = await undoChanges(memory, ids, by, now);
    if (result.ok || result.reason !== "changed-since" || result.later.length === 0) return result;
    ids = [...new Set([...ids, ...result.later.map((e) => e.id)])];
  }
  return undoChanges(memory, ids, by, now);
}

/**
 * The undo a person asks for, from any front end: one change, or with `withLater` that change and
 * every later one in its way (undoWithLater). Returns what happened as a kind; the front end words it.
 */
export function undoChange(memory: JournalledFiles, id: string, by: Actor, options: { withLater?: boolean; now?: Date } = {}): Promise<UndoResult> {
  const now = options.now ?? new Date();
  return options.withLater ? undoWithLater(memory, id, by, now) : undoChanges(memory, [id], by, now);
}

/** The changes of a history (newest first, as MemoryStore.history gives it) that can still be taken back, newest first. */
export function undoableOf(history: readonly JournalEntry[]): JournalEntry[] {
  return undoable([...history].reverse());
}
