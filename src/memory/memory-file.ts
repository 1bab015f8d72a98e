import { createHash } from "node:crypto";
import { readFileSync, statSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { ok, type Result } from "../lib/result.js";
import type { Actor, JournalEntry } from "./journal.js";
import { checkContent, withoutByteOrderMark, type SafetyLevel } from "./safety.js";
import { addedSecret, type SecretFinding } from "./secrets.js";
import {
  addToSection,
  noSectionError,
  parseSections,
  removeSection,
  replaceInSection,
  sectionSizes,
  serializeSections,
  type Edit,
  type SectionDocument,
  type SectionSize,
} from "./sections.js";
import { countChars } from "../lib/text.js";

/**
 * Who is writing, for the safety checks (`level`) and for the journal (`by`): the model in a
 * session (tool level), the person (/memory, /onboard), or AgentKit itself (summaries, archive).
 */
export interface Writer {
  level: SafetyLevel;
  by: Actor;
  /** Refuse a secret even in a person's own edit: a file everyone reads (a server's notes). */
  refusesSecrets?: boolean;
}

export const PERSON: Writer = { level: "person", by: { kind: "person" } };
/** The person on the web page: the same checks, told apart in history ("you, on the web"). */
export const PERSON_ON_THE_WEB: Writer = { level: "person", by: { kind: "person", via: "web" } };

export function modelWriter(session: string, title?: string): Writer {
  return { level: "tool", by: { kind: "model", session, ...(title ? { title } : {}) } };
}

/** AgentKit's own writes (a summary, condensing a day); checked like a person's edit. */
export function systemWriter(reason: string): Writer {
  return { level: "person", by: { kind: "system", reason } };
}

export interface Usage {
  used: number;
  cap: number;
}

export interface WriteOutcome {
  file: string;
  section?: string;
  /** False for a no-op, e.g. adding text the section already holds. */
  changed: boolean;
  usage: Usage;
  /** The journal entry of the change (undo takes it back). */
  entryId?: string;
  /** A person's own edit that looks like it holds a secret (saved all the same): what it looks like. */
  secret?: SecretFinding;
  /** The named section's text as it reads after the write (what the instruction check reads: an add plus a replace cannot assemble one unseen). */
  sectionText?: string;
}

/** The text a missing file reads as, and who is named in the journal when it is written. */
export interface Fallback {
  text(): string;
  by: Actor;
  op: string;
}

/** What a file needs of its owner: the person's lock, and a journalled write (under that lock). */
export interface FileOwner {
  serialize<T>(work: () => Promise<T>): Promise<T>;
  /**
   * Journals the change, then writes the text; undefined when nothing changed. `from` is the text
   * the change was made from: the write is abandoned if the file no longer holds it.
   */
  commit(by: Actor, op: string, label: string, path: string, text: string, from: string | null, now?: Date): Promise<JournalEntry | undefined>;
}

/** A file's text; a byte-order mark an editor put at its start is read past (and so dropped by the next write). */
export function readTextIfExistsSync(path: string): string | undefined {
  // A missing file is the common case (a new person has none of them): asked first, since the
  // error a failed read throws costs tens of microseconds to make. Only "no such file" answers
  // undefined: a folder that cannot be read throws, as the read would (settings read as empty would
  // make every private section public). Gone between the two: caught below.
  if (statSync(path, { throwIfNoEntry: false }) === undefined) return undefined;
  try {
    return withoutByteOrderMark(readFileSync(path, "utf8"));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

export interface EditOptions {
  /** Checks everything a write would (safety, secrets, cap, the section) and writes nothing. */
  dryRun?: boolean;
}

/** Why a write was refused, for callers that act on it (the message is for people and the model). */
export type Refusal = "unsafe" | "secret" | "not-applicable" | "over-cap" | "changed";

/** The values behind a refusal, for front ends that word it in the person's language (src/present/write-refusal.ts). */
export interface RefusalDetail {
  /** over-cap: the file's size before the write, its cap, and what the write adds. */
  used?: number;
  cap?: number;
  adds?: number;
  /**
   * over-cap, and a section the file does not have: the file's sections then, for a caller that words
   * the error again without some (where others read, the private ones: refusalWithout).
   */
  sections?: SectionSize[];
  /** The section the write named, which the file does not have. */
  missing?: string;
  /** not-applicable: why. The section is missing or there more than once, or the text to replace is not in it or in it `count` times. */
  reason?: "missing" | "duplicate" | "old-text-missing" | "old-text-repeated";
  count?: number;
  /** unsafe: where the invisible character is (the text or the section name), which one, and at which character. */
  part?: "text" | "section-name";
  character?: string;
  position?: number;
  /** secret: what the text looks like. */
  secret?: SecretFinding;
}

export type WriteResult = { ok: true; value: WriteOutcome } | { ok: false; error: string; refusal: Refusal; detail?: RefusalDetail };

const refuse = (refusal: Refusal, error: string, detail?: RefusalDetail): WriteResult => ({ ok: false, error, refusal, ...(detail ? { detail } : {}) });

/** A short fingerprint of a file's text, to notice it changed under a person's edit. */
export function contentHash(text: string): string {
  return createHash("sha256").update(text).digest("hex").slice(0, 16);
}

export function formatUsage(usage: Usage): string {
  return `${usage.used}/${usage.cap}`;
}

/** A refusal's error without the sections `listed` leaves out: names and sizes of those are not said. */
export function refusalWithout(
  failure: { error: string; refusal: Refusal; detail?: RefusalDetail },
  label: string,
  listed: (section: string) => boolean,
): string {
  const detail = failure.detail;
  if (!detail?.sections) return failure.error;
  const sections = detail.sections.filter((s) => listed(s.name));
  if (failure.refusal === "over-cap") return overCapError(label, detail.used ?? 0, detail.cap ?? 0, detail.adds ?? 0, sections);
  return detail.missing === undefined
    ? failure.error
    : `${label}: ${noSectionError(
        detail.missing,
        sections.map((s) => s.name),
      )}`;
}

function overCapError(label: string, used: number, cap: number, adds: number, sections: readonly SectionSize[]): string {
  const sizes = sections.map((s) => `"${s.name}" ${s.chars}`).join(", ");
  return (
    `${label} is full: ${used}/${cap} chars; this adds ${adds}. ` +
    `Sections (chars): ${sizes || "none"}. Nothing was saved. ` +
    `Consolidate first: replace long entries with shorter ones or remove outdated sections, then try again.`
  );
}

/** One Markdown memory file with a cap in Unicode code points. */
export class MemoryFile {
  constructor(
    /** The name people and the model know it by, e.g. "USER.md". */
    readonly label: string,
    readonly path: string,
    readonly cap: number,
    private readonly owner: FileOwner,
    /**
     * What a missing file reads as (SOUL.md: the default persona); written, by AgentKit, just
     * before the first change made to it. Without: "".
     */
    private readonly fallback?: Fallback,
  ) {}

  /** The file's text; a missing file reads as its fallback, else "". */
  async read(): Promise<string> {
    return (await this.readIfExists()) ?? this.fallback?.text() ?? "";
  }

  /** Like readIfExists, without the thread pool: see MemoryStore.snapshot. */
  readIfExistsSync(): string | undefined {
    return readTextIfExistsSync(this.path);
  }

  /** The file's text, or undefined when there is no such file. */
  async readIfExists(): Promise<string | undefined> {
    try {
      return withoutByteOrderMark(await readFile(this.path, "utf8"));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      throw error;
    }
  }

  async usage(): Promise<Usage> {
    return { used: countChars(await this.read()), cap: this.cap };
  }

  /**
   * Replaces the whole file (a person's /memory edit). With `ifUnchanged` (the contentHash of
   * the text the person started from) it refuses when the file has changed since.
   */
  write(text: string, writer: Writer, options: { ifUnchanged?: string; op?: string } = {}): Promise<WriteResult> {
    const ifUnchanged = options.ifUnchanged;
    return this.edit(text, writer, options.op ?? "edit", () => ok({ doc: parseSections(text), changed: true }), {
      ...(ifUnchanged !== undefined ? { ifUnchanged } : {}),
    });
  }

  add(section: string, content: string, writer: Writer, options: EditOptions = {}): Promise<WriteResult> {
    return this.edit(content, writer, "add", (doc) => addToSection(doc, section, content), { ...options, section: section.trim() });
  }

  replace(section: string, oldText: string, newText: string, writer: Writer, options: EditOptions = {}): Promise<WriteResult> {
    return this.edit(newText, writer, "replace", (doc) => replaceInSection(doc, section, oldText, newText), { ...options, section: section.trim(), oldText });
  }

  remove(section: string, writer: Writer, options: EditOptions = {}): Promise<WriteResult> {
    return this.edit("", writer, "remove", (doc) => removeSection(doc, section), { ...options, section: section.trim() });
  }

  private async edit(
    incoming: string,
    writer: Writer,
    op: string,
    change: (doc: SectionDocument) => Result<Edit>,
    { section, ifUnchanged, dryRun, oldText }: EditOptions & { section?: string; ifUnchanged?: string; oldText?: string } = {},
  ): Promise<WriteResult> {
    const verdict = checkContent(incoming, writer.level);
    const unsafe = (part: "text" | "section-name", found: { character?: string; position?: number }) =>
      found.character === undefined ? { part } : { part, character: found.character, ...(found.position ? { position: found.position } : {}) };
    if (!verdict.ok) return refuse("unsafe", `${this.label}: refused, the text ${verdict.reason}`, unsafe("text", verdict));
    const name = checkContent(section ?? "", writer.level);
    if (!name.ok) return refuse("unsafe", `${this.label}: refused, the section name ${name.reason}`, unsafe("section-name", name));
    // The model and AgentKit itself never store a secret; a person's own edit is saved with a warning.
    const refusesSecrets = writer.level === "tool" || writer.by.kind === "system" || writer.refusesSecrets === true;
    // A dry run only reads: it neither waits for the write lock nor wakes the recall index (the
    // write it previews is checked again, under the lock, when it is made).
    const run = dryRun ? (work: () => Promise<WriteResult>) => work() : (work: () => Promise<WriteResult>) => this.owner.serialize(work);
    return run(async (): Promise<WriteResult> => {
      const existing = await this.readIfExists();
      const before = existing ?? this.fallback?.text() ?? "";
      if (ifUnchanged !== undefined && contentHash(before) !== ifUnchanged) {
        return refuse(
          "changed",
          `${this.label}: changed since you opened it (I may have saved something during a conversation), so your version was not saved`,
        );
      }
      const doc = parseSections(before);
      const edited = change(doc);
      if (!edited.ok) {
        // Only add, replace and remove fail: the section is missing or there more than once, or (a
        // replace) its old text is not in it exactly once. A missing section lists the file's others.
        const named = doc.sections.filter((s) => s.name === section);
        const error = `${this.label}: ${edited.error}`;
        if (named.length === 0) return refuse("not-applicable", error, { missing: section ?? "", sections: sectionSizes(doc), reason: "missing" });
        if (named.length > 1) return refuse("not-applicable", error, { reason: "duplicate", count: named.length });
        const found = named[0]!.body.split(oldText ?? "").length - 1;
        return refuse("not-applicable", error, found === 0 ? { reason: "old-text-missing" } : { reason: "old-text-repeated", count: found });
      }
      const after = serializeSections(edited.value.doc);
      // The model's text may not change which sections the file has, by any route (a fence it
      // closes, a line it splits): a duplicate heading would make a section uneditable.
      if (writer.level === "tool" && !sameSections(parseSections(after), edited.value.doc)) {
        return refuse(
          "unsafe",
          `${this.label}: refused, the text would change the file's sections (it opens or closes a code fence around a heading, or makes a new "## " line); write plain lines`,
        );
      }
      // The file as it would be after the write, not only the incoming text: a key or a card
      // number can be assembled from two writes. A secret the file held already is not new.
      const secret = after === before ? undefined : addedSecret(before, after);
      if (secret && refusesSecrets) {
        return refuse(
          "secret",
          `${this.label}: refused, the text looks like ${secret.kind}. Passwords, keys, tokens and card numbers are never stored in memory; tell the person so`,
          { secret },
        );
      }
      const used = countChars(after);
      // Told only to a dry run: a write's caller decides with it before anything is written.
      const sectionText = section && dryRun ? edited.value.doc.sections.find((s) => s.name === section)?.body : undefined;
      const outcome = {
        file: this.label,
        ...(section ? { section } : {}),
        ...(sectionText !== undefined ? { sectionText } : {}),
        usage: { used, cap: this.cap },
        ...(secret ? { secret } : {}),
      };
      if (!edited.value.changed || after === before) return ok({ ...outcome, changed: false });
      const previous = countChars(before);
      // A hand-edited file may already be over its cap: edits that shrink it stay allowed.
      if (used > this.cap && used > previous) {
        const sections = sectionSizes(doc);
        return refuse("over-cap", overCapError(this.label, previous, this.cap, used - previous, sections), {
          used: previous,
          cap: this.cap,
          adds: used - previous,
          sections,
        });
      }
      if (dryRun) return ok({ ...outcome, changed: true });
      // The fallback the change was made from is written first, as AgentKit's own line in the
      // journal: an undo of the change goes back to it, and the change is the writer's alone.
      const fromFallback = existing === undefined && this.fallback !== undefined;
      // Emptied, it would be removed and read as the fallback again: nothing changes.
      if (fromFallback && after.trim() === "") return ok({ ...outcome, changed: false });
      // The change is stamped a millisecond after the fallback's line, so an undo of both takes them in order.
      const now = new Date();
      if (fromFallback) await this.owner.commit(this.fallback!.by, this.fallback!.op, this.label, this.path, before, null, now);
      const entry = await this.owner.commit(
        writer.by,
        op,
        this.label,
        this.path,
        after,
        fromFallback ? before : (existing ?? null),
        new Date(now.getTime() + 1),
      );
      return ok({ ...outcome, changed: true, ...(entry ? { entryId: entry.id } : {}) });
    });
  }
}

function sameSections(a: SectionDocument, b: SectionDocument): boolean {
  return a.sections.length === b.sections.length && a.sections.every((section, i) => section.name === b.sections[i]!.name);
}
