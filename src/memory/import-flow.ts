import type { JournalEntry } from "./journal.js";
import { applyImport, type ImportPlan, importRoom, planImport } from "./import.js";
import { type ImportRefusal, readImport } from "./import-bundle.js";
import { keepUpload, takeUpload } from "./import-uploads.js";
import type { MemoryStore } from "./memory-store.js";

/**
 * A person's import, as every front end runs it (Discord's /memory import and its buttons, the web
 * page's form, `npm run memory -- import`): an upload is read, checked and planned into a preview;
 * a confirmed one is read again and applied under the person's lock. Each step returns a kind and
 * its values; the front ends word them (present/import-preview.ts) and keep the busy guard
 * (oneImportAtATime) and their own way of asking.
 */

export type ImportPreview =
  /** The upload is not an import: its name, size, encoding or shape. */
  | { kind: "refused"; refusal: ImportRefusal }
  /** Nothing in it would change the person's memory. */
  | { kind: "nothing"; plan: ImportPlan }
  /** What it would change; with `keep`, the upload waits under `token` for the person's answer. */
  | { kind: "ready"; plan: ImportPlan; token?: string };

/** Reads and plans an upload; refused when it is no import or would pass the storage quota. With `keep`, kept for confirmImport. */
export async function previewImport(memory: MemoryStore, name: string, bytes: Uint8Array, options: { keep?: boolean } = {}): Promise<ImportPreview> {
  const files = await readImport(name, bytes);
  if (!files.ok) return { kind: "refused", refusal: files.error };
  const plan = await planImport(memory, files.value);
  const full = await importRoom(memory, plan);
  if (full) return { kind: "refused", refusal: full };
  if (Object.keys(plan.writes).length === 0 && !plan.settings) return { kind: "nothing", plan };
  return { kind: "ready", plan, ...(options.keep ? { token: await keepUpload(memory, name, bytes) } : {}) };
}

export type ImportResult =
  /** The upload is gone: answered already, expired, or taken by a forget. */
  | { kind: "gone" }
  | { kind: "refused"; name: string; refusal: ImportRefusal }
  /** A forget or delete-all ran since the upload was kept: what it removed may be in it. */
  | { kind: "forgotten"; name: string }
  /** Not applied, nothing written: sections of it read as instructions to the assistant (importNow without keepInstructions). */
  | { kind: "held"; name: string; plan: ImportPlan }
  /** Applied; `wrote` is false when the memory already held all of it; `entry` is what one undo takes back. */
  | { kind: "done"; name: string; plan: ImportPlan; wrote: boolean; entry?: JournalEntry };

/** The person said Import: the kept upload is read again, planned again under the lock and applied. */
export async function confirmImport(memory: MemoryStore, token: string, now: Date): Promise<Exclude<ImportResult, { kind: "held" }>> {
  const upload = await takeUpload(memory, token, { claim: true });
  if (!upload) return { kind: "gone" };
  const { name } = upload;
  const files = await readImport(name, upload.bytes);
  if (!files.ok) return { kind: "refused", name, refusal: files.error };
  const outcome = await applyImport(memory, files.value, now, { claim: token });
  if ("full" in outcome) return { kind: "refused", name, refusal: outcome.full };
  if (!("plan" in outcome)) return { kind: "forgotten", name };
  return done(name, outcome);
}

/** The person said Cancel: the kept upload is dropped. */
export async function cancelImport(memory: MemoryStore, token: string): Promise<void> {
  await takeUpload(memory, token);
}

/** An import applied at once, without a preview kept (the operator's command line). */
export async function importNow(
  memory: MemoryStore,
  name: string,
  bytes: Uint8Array,
  options: { now?: Date; keepInstructions?: boolean } = {},
): Promise<Exclude<ImportResult, { kind: "gone" | "forgotten" }>> {
  const files = await readImport(name, bytes);
  if (!files.ok) return { kind: "refused", name, refusal: files.error };
  const now = options.now ?? new Date();
  const outcome = options.keepInstructions
    ? await applyImport(memory, files.value, now)
    : await applyImport(memory, files.value, now, { holdInstructions: true });
  if ("full" in outcome) return { kind: "refused", name, refusal: outcome.full };
  if ("held" in outcome) return { kind: "held", name, plan: outcome.held };
  return done(name, outcome);
}

/** An applied import as its result: `wrote` false when the memory already held all of it. */
function done(name: string, { plan, entry }: { plan: ImportPlan; entry?: JournalEntry }): Extract<ImportResult, { kind: "done" }> {
  return { kind: "done", name, plan, wrote: plan.files.some((file) => file.status === "new" || file.status === "changed"), ...(entry ? { entry } : {}) };
}
