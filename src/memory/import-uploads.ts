/**
 * An upload waiting for the person's answer to its preview (Discord's buttons, the web page's form):
 * kept in their pending/ folder for an hour, taken out once, and one import a person at a time.
 */
import { readdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { PRIVATE_FILE_MODE } from "../lib/private-files.js";
import { keepConfirmation, takeConfirmation } from "./confirmations.js";
import type { MemoryStore } from "./memory-store.js";

/** Removes the person's waiting import uploads (and their confirmations): a new preview replaces them. */
async function dropPendingImports(memory: MemoryStore): Promise<void> {
  const dir = join(memory.dir, "pending");
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    if (name.startsWith("import-")) await rm(join(dir, name), { force: true });
  }
}

/** Where a pending import keeps its upload until the person answers (the pending/ folder, an hour). */
function pendingUploadPath(memory: MemoryStore, token: string): string {
  // The token comes back from a button or a URL: only what keepConfirmation makes, never a path.
  if (!/^[0-9a-f]{12}$/.test(token)) throw new Error("not an import token");
  return join(memory.dir, "pending", `import-${token}.upload`);
}

/**
 * People whose import is being read or written in this process: one at a time each (every front
 * end). Forty 10 MB previews at once took 2 GB and held up everyone's replies for seconds.
 */
const importing = new Set<string>();

/** Runs `work` as this person's one import under way, or answers `busy` when another is. */
export async function oneImportAtATime<T>(memory: MemoryStore, busy: () => Promise<T> | T, work: () => Promise<T>): Promise<T> {
  if (importing.has(memory.dir)) return busy();
  importing.add(memory.dir);
  try {
    return await work();
  } finally {
    importing.delete(memory.dir);
  }
}

/**
 * Keeps an upload until the person answers its preview: in their pending/ folder (an hour, gone
 * with a forget). A new preview replaces an older one, so pending/ holds at most one upload a
 * person. Returns the token Import and Cancel carry.
 */
export async function keepUpload(memory: MemoryStore, name: string, bytes: Uint8Array): Promise<string> {
  await dropPendingImports(memory);
  const token = await keepConfirmation(memory.dir, "import", { name });
  // Not atomic: a cut upload only fails to read again at Import, with its reason.
  await writeFile(pendingUploadPath(memory, token), bytes, { mode: PRIVATE_FILE_MODE });
  return token;
}

/**
 * The upload a pending import kept, taken out (undefined when unknown, expired or already used).
 * With `claim` (Import pressed): a claim is left in pending/ for applyImport, which a forget removes.
 */
export async function takeUpload(memory: MemoryStore, token: string, options: { claim?: boolean } = {}): Promise<{ name: string; bytes: Buffer } | undefined> {
  if (!/^[0-9a-f]{12}$/.test(token)) return undefined;
  const pending = await takeConfirmation<{ name?: unknown }>(memory.dir, "import", token);
  const path = pendingUploadPath(memory, token);
  const bytes = pending ? await readFile(path).catch(() => undefined) : undefined;
  const taken = typeof pending?.name === "string" && bytes ? { name: pending.name, bytes } : undefined;
  // The claim is written before the upload goes, so there is no moment with neither; a forget that
  // emptied pending/ since the upload was read leaves no folder to write it in: out of date.
  const claimed =
    taken && options.claim
      ? await writeFile(claimPath(memory, token), "", { mode: PRIVATE_FILE_MODE }).then(
          () => true,
          () => false,
        )
      : true;
  await rm(path, { force: true });
  return claimed ? taken : undefined;
}

export function claimPath(memory: MemoryStore, token: string): string {
  return pendingUploadPath(memory, token).replace(/\.upload$/, ".claim");
}
