/**
 * An export bundle: what /memory export gives (everything of a person as one JSON file) and how an
 * upload is read back into files by label (a bundle, or one SOUL.md / USER.md / MEMORY.md), with the
 * limits of one import. Planning and applying an import is import.ts; keeping an upload until the
 * person answers its preview is import-uploads.ts.
 */
import { chmod, readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { parseJsonInSlices } from "../lib/json-in-slices.js";
import { err, ok, type Result } from "../lib/result.js";
import { dateOfLog } from "../lib/time.js";
import { TimeSlices } from "../lib/time-slices.js";
import { writeFileAtomic } from "./atomic-write.js";
import { dateOfConversation } from "./conversation-log.js";
import { FILE_TABLE, WHOLE_FILE_LABELS, wholeFileNamed } from "./file-kinds.js";
import { readTextIfExistsSync } from "./memory-file.js";
import type { MemoryStore } from "./memory-store.js";
import type { StorageFull } from "./storage-quota.js";

const BUNDLE_FORMAT = "agentkit-memory";
export const BUNDLE_NAME = "agentkit-memory.json";

/** Everything of a person, as /memory export gives it and import takes it back. */
export interface Bundle {
  format: typeof BUNDLE_FORMAT;
  version: 1;
  exportedAt: string;
  /** By label: "SOUL.md", "settings.json", "daily/2026-12-01.md", "daily/archive/…", "conversations/…". */
  files: Record<string, string>;
}

/**
 * What one import may hold. Far above a year's use (an export is mostly conversations, a few
 * KB each), and low enough that reading, checking and writing it never holds up anyone else.
 */
export const IMPORT_LIMITS = {
  /** The upload: a bundle or one memory file (Discord takes 10 MiB without Nitro). */
  bytes: 10_000_000,
  /** One file in a bundle: a conversation, an archived day (memory files and logs have smaller caps). */
  fileBytes: 1_000_000,
  /** One line of any file. */
  lineChars: 20_000,
  /** `## ` sections of one memory file or log (a real one has tens): each becomes a change in the journal. */
  sections: 1_000,
  /** Files in one bundle. */
  files: 5_000,
  /** Memory files and logs together: they become one journal entry (one undo takes the import back). */
  journalledChars: 4_000_000,
} as const;

export async function exportBundle(memory: MemoryStore, now = new Date()): Promise<Bundle> {
  const files: Record<string, string> = {};
  for (const name of [...WHOLE_FILE_LABELS, "settings.json"]) {
    const text = readTextIfExistsSync(join(memory.dir, name));
    if (text !== undefined) files[name] = text;
  }
  for (const folder of ["daily", "daily/archive", "conversations"]) {
    const names = (await readdir(join(memory.dir, folder)).catch(() => [] as string[])).sort();
    for (const name of names) {
      if (folder === "conversations" ? dateOfConversation(name) : dateOfLog(name))
        files[`${folder}/${name}`] = await readFile(join(memory.dir, folder, name), "utf8");
    }
  }
  return { format: BUNDLE_FORMAT, version: 1, exportedAt: now.toISOString(), files };
}

/** Writes an export to a file of its own (the operator's `export --out`): whole or not at all, readable by its owner only (600). */
export async function saveExport(path: string, text: string): Promise<void> {
  // Created 600 less the umask, then exactly 600: a backup of someone's memory is its owner's alone.
  await writeFileAtomic(path, text);
  await chmod(path, 0o600);
}

/** Why an upload cannot be imported at all (nothing is changed); front ends word it. */
export type ImportRefusal =
  | { kind: "unknown-name" }
  /** `bytes` is unknown when a download was cut at the limit. */
  | { kind: "too-large"; bytes?: number; limit: number }
  | { kind: "not-utf8" }
  | { kind: "empty" }
  /** A bundle whose `files` holds nothing. */
  | { kind: "no-files" }
  | { kind: "invalid-json"; line: number; column: number }
  | { kind: "wrong-shape"; problem: "not-an-export" | "newer-version" | "no-files-object" | "too-deep" | "too-many-values" }
  | { kind: "wrong-shape"; problem: "file-not-text"; label: string }
  | { kind: "too-many-files"; files: number; limit: number }
  | { kind: "too-much-memory"; chars: number; limit: number }
  /** It would take the person past STORAGE_QUOTA_MB. */
  | StorageFull;

/** Labels an import journals: memory files and daily logs (conversations and settings are written as they are). */
export function isJournalled(label: string): boolean {
  return label !== "settings.json" && !label.startsWith("conversations/");
}

/** Whether a file name is one an import takes: a .json bundle, or SOUL.md / USER.md / MEMORY.md. */
export function importableName(fileName: string): boolean {
  const name = fileName.trim();
  return wholeFileNamed(name) !== undefined || name.toLowerCase().endsWith(".json");
}

/**
 * An upload as files by label: an export bundle, or one SOUL.md / USER.md / MEMORY.md file.
 * Read in slices (a 10 MB bundle never holds up other people).
 */
export async function readImport(fileName: string, bytes: Uint8Array, slices = new TimeSlices()): Promise<Result<Record<string, string>, ImportRefusal>> {
  if (!importableName(fileName)) return err({ kind: "unknown-name" });
  const single = wholeFileNamed(fileName.trim());
  if (bytes.byteLength > IMPORT_LIMITS.bytes) return err({ kind: "too-large", bytes: bytes.byteLength, limit: IMPORT_LIMITS.bytes });
  const text = await decodeUtf8(bytes, slices);
  if (text === undefined) return err({ kind: "not-utf8" });
  if (text.trim() === "") return err({ kind: "empty" });
  if (single) return ok({ [FILE_TABLE[single].label]: text });
  // A bundle of 5,000 files has about 5,000 values; far more is not an export.
  const parsed = await parseJsonInSlices(text, { maxDepth: 8, maxValues: IMPORT_LIMITS.files * 4, slices });
  if (!parsed.ok) {
    if (parsed.error.kind === "syntax") return err({ kind: "invalid-json", line: parsed.error.line, column: parsed.error.column });
    return err({ kind: "wrong-shape", problem: parsed.error.kind });
  }
  return bundleFiles(parsed.value);
}

/** UTF-8 to text a megabyte at a time (10 MB in one call holds the loop for tens of ms); undefined when it is not UTF-8. */
async function decodeUtf8(bytes: Uint8Array, slices: TimeSlices): Promise<string | undefined> {
  const decoder = new TextDecoder("utf-8", { fatal: true });
  const pieces: string[] = [];
  try {
    for (let start = 0; start < bytes.byteLength; start += DECODE_BYTES) {
      pieces.push(decoder.decode(bytes.subarray(start, start + DECODE_BYTES), { stream: true }));
      await slices.pause();
    }
    pieces.push(decoder.decode());
  } catch {
    return undefined;
  }
  return pieces.join("");
}

const DECODE_BYTES = 1 << 20;

function bundleFiles(value: unknown): Result<Record<string, string>, ImportRefusal> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return err({ kind: "wrong-shape", problem: "not-an-export" });
  const bundle = value as Record<string, unknown>;
  if (bundle.format !== BUNDLE_FORMAT) return err({ kind: "wrong-shape", problem: "not-an-export" });
  if (bundle.version !== 1) return err({ kind: "wrong-shape", problem: "newer-version" });
  const files = bundle.files;
  if (typeof files !== "object" || files === null || Array.isArray(files)) return err({ kind: "wrong-shape", problem: "no-files-object" });
  const entries = Object.entries(files);
  if (entries.length === 0) return err({ kind: "no-files" });
  if (entries.length > IMPORT_LIMITS.files) return err({ kind: "too-many-files", files: entries.length, limit: IMPORT_LIMITS.files });
  const notText = entries.find(([, text]) => typeof text !== "string");
  if (notText) return err({ kind: "wrong-shape", problem: "file-not-text", label: notText[0] });
  const journalled = entries.reduce((sum, [label, text]) => sum + (isJournalled(label) ? (text as string).length : 0), 0);
  if (journalled > IMPORT_LIMITS.journalledChars) return err({ kind: "too-much-memory", chars: journalled, limit: IMPORT_LIMITS.journalledChars });
  return ok(Object.fromEntries(entries) as Record<string, string>);
}
