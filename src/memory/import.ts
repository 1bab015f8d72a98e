import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { err, ok, type Result } from "../result.js";
import { writeFileAtomic } from "./atomic-write.js";
import { dateOfConversation } from "./conversation-log.js";
import type { JournalEntry } from "./journal.js";
import { readTextIfExistsSync } from "./memory-file.js";
import { CAPS, type MemoryStore, type Settings } from "./memory-store.js";
import { checkContent } from "./safety.js";
import { findSecret, type SecretFinding } from "./secrets.js";
import { countChars, parseSections } from "./sections.js";
import { dateOfLog } from "./time.js";

export const BUNDLE_FORMAT = "agentkit-memory";
export const BUNDLE_NAME = "agentkit-memory.json";

/** Everything of a person, as /memory export gives it and import takes it back. */
export interface Bundle {
  format: typeof BUNDLE_FORMAT;
  version: 1;
  exportedAt: string;
  /** By label: "SOUL.md", "settings.json", "daily/2026-12-01.md", "daily/archive/…", "conversations/…". */
  files: Record<string, string>;
}

export async function exportBundle(memory: MemoryStore, now = new Date()): Promise<Bundle> {
  const files: Record<string, string> = {};
  for (const name of ["SOUL.md", "USER.md", "MEMORY.md", "settings.json"]) {
    const text = readTextIfExistsSync(join(memory.dir, name));
    if (text !== undefined) files[name] = text;
  }
  for (const folder of ["daily", "daily/archive", "conversations"]) {
    const names = (await readdir(join(memory.dir, folder)).catch(() => [] as string[])).sort();
    for (const name of names) {
      if (folder === "conversations" ? dateOfConversation(name) : dateOfLog(name)) files[`${folder}/${name}`] = await readFile(join(memory.dir, folder, name), "utf8");
    }
  }
  return { format: BUNDLE_FORMAT, version: 1, exportedAt: now.toISOString(), files };
}

/** An export bundle, or one SOUL.md / USER.md / MEMORY.md file: its files by label. */
export function readImport(fileName: string, text: string): Result<Record<string, string>, "unknown-format"> {
  const single = /^(soul|user|memory)\.md$/i.exec(fileName.trim());
  if (single) return ok({ [`${single[1]!.toUpperCase()}.md`]: text });
  if (fileName.toLowerCase().endsWith(".json")) {
    try {
      const bundle = JSON.parse(text) as Partial<Bundle>;
      if (bundle.format === BUNDLE_FORMAT && bundle.files && typeof bundle.files === "object") {
        const files = Object.entries(bundle.files).filter((e): e is [string, string] => typeof e[1] === "string");
        return ok(Object.fromEntries(files));
      }
    } catch {
      // Reported below, like any other file.
    }
  }
  return err("unknown-format");
}

export type ImportStatus = "new" | "changed" | "same" | "refused";

export interface ImportedFile {
  label: string;
  status: ImportStatus;
  chars: number;
  cap?: number;
  sections: number;
  /** Why it will not be imported (`detail`: the safety check's reason). */
  problem?: { kind: "not-memory" | "unsafe" | "over-cap"; detail?: string };
  /** Imported all the same, but worth saying: it looks like it holds a secret. */
  secret?: SecretFinding;
}

export interface ImportPlan {
  files: ImportedFile[];
  /** The texts to write, by label (refused and unchanged files left out). */
  writes: Record<string, string>;
  settings?: Settings;
}

const capOf = (label: string): number | undefined =>
  label === "SOUL.md" ? CAPS.soul : label === "USER.md" ? CAPS.user : label === "MEMORY.md" ? CAPS.memory : /^daily\/\d/.test(label) ? CAPS.daily : undefined;

/** What an import would change, checked as a person's own edit would be (control characters, caps). */
export function planImport(memory: MemoryStore, files: Record<string, string>): ImportPlan {
  const plan: ImportPlan = { files: [], writes: {} };
  for (const [label, raw] of Object.entries(files).sort(([a], [b]) => a.localeCompare(b))) {
    const text = raw.replace(/\r\n/g, "\n");
    if (label === "settings.json") {
      const parsed = parseSettings(text);
      if (parsed) plan.settings = parsed;
      continue;
    }
    const path = pathFor(memory, label);
    const chars = countChars(text);
    const cap = capOf(label);
    const file: ImportedFile = { label, status: "new", chars, ...(cap ? { cap } : {}), sections: parseSections(text).sections.length };
    const safe = checkContent(text, "person");
    const secret = findSecret(text);
    if (!path) file.problem = { kind: "not-memory" };
    else if (!safe.ok) file.problem = { kind: "unsafe", detail: safe.reason };
    else if (cap !== undefined && chars > cap) file.problem = { kind: "over-cap" };
    if (secret) file.secret = secret;
    if (file.problem) file.status = "refused";
    else {
      const current = readTextIfExistsSync(path!);
      file.status = current === undefined ? "new" : current === text ? "same" : "changed";
      if (file.status !== "same") plan.writes[label] = text;
    }
    plan.files.push(file);
  }
  return plan;
}

/** Writes an import: memory files and logs as one journalled change (one undo takes it back), then conversations. */
export async function applyImport(memory: MemoryStore, plan: ImportPlan, now = new Date()): Promise<JournalEntry | undefined> {
  const memoryWrites = Object.entries(plan.writes).filter(([label]) => !label.startsWith("conversations/"));
  const entry = await memory.serialize(async () => {
    const committed = memoryWrites.length > 0 ? await memory.commit({ kind: "person" }, "import", memoryWrites.map(([label, text]) => ({ label, text })), { now }) : undefined;
    for (const [label, text] of Object.entries(plan.writes)) {
      if (label.startsWith("conversations/")) await writeFileAtomic(join(memory.dir, label), text);
    }
    return committed;
  });
  if (plan.settings) await memory.saveSettings(plan.settings);
  return entry;
}

/** The path of a label an import may write, or undefined (anything else is refused before any path). */
function pathFor(memory: MemoryStore, label: string): string | undefined {
  const conversation = /^conversations\/(\d{4}-\d{2}-\d{2}-[\p{L}\p{N}-]{1,60}\.md)$/u.exec(label)?.[1];
  if (conversation !== undefined) return dateOfConversation(conversation) ? join(memory.conversationsDir, conversation) : undefined;
  try {
    return memory.pathOf(label);
  } catch {
    return undefined;
  }
}

function parseSettings(text: string): Settings | undefined {
  try {
    const value = JSON.parse(text) as Record<string, unknown>;
    const settings: Settings = {};
    if (typeof value.timezone === "string") settings.timezone = value.timezone;
    if (typeof value.locale === "string") settings.locale = value.locale;
    if (value.askBeforeSaving === "off" || value.askBeforeSaving === "profile" || value.askBeforeSaving === "all") settings.askBeforeSaving = value.askBeforeSaving;
    return settings;
  } catch {
    return undefined;
  }
}
