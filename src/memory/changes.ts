import type { Held } from "../lib/provenance.js";
import { english, type Say } from "../lib/locale.js";
import type { FileKind } from "./file-kinds.js";

/** A change the model's tools made to a memory file in a turn. */
export interface MemoryChange {
  file: string;
  section?: string;
}

/** A write the model asked for that waits for the person's OK. */
export interface ProposedChange extends MemoryChange {
  proposal: string;
  /** What it would do, e.g. `+ "prefers oolong"`. */
  summary: string;
  /** Held by code for the person's Save (not their words, or an instruction), and where its words came from. */
  held?: Held;
}

/** "saved to USER.md › Preferences, MEMORY.md › Follow-ups", or "" when nothing changed. */
export function describeChanges(changes: MemoryChange[], say: Say = english): string {
  const places = [...new Set(changes.map((c) => (c.section ? `${c.file} › ${c.section}` : c.file)))];
  return places.length === 0 ? "" : say(`💾 saved to ${places.join(", ")}`, `💾 已保存到 ${places.join("、")}`);
}

/**
 * Where something the model found with memory_search came from: a message of an archived
 * conversation (file + message number), a daily log's entry or a memory file's section. No text:
 * what a footer's "Not right?" needs is read again from the files when pressed.
 */
export interface SourceRef {
  source: "conversation" | FileKind;
  /** Relative to the person's folder. */
  file: string;
  ord: number;
  /** The conversation's title or the section's name. */
  title: string;
  date: string;
}

/** At most this many sources are named under an answer. */
const MAX_SOURCES = 3;

/** The distinct sources of a turn's search results, best first: one per conversation, one per section. */
export function distinctSources(found: readonly SourceRef[]): SourceRef[] {
  const seen = new Set<string>();
  const out: SourceRef[] = [];
  for (const ref of found) {
    const key = ref.source === "conversation" ? ref.file : `${ref.file}#${ref.title}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(ref);
    if (out.length === MAX_SOURCES) break;
  }
  return out;
}
