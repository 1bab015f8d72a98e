import { randomBytes } from "node:crypto";
import { mkdir, readdir, readFile, rm, stat } from "node:fs/promises";
import { join } from "node:path";
import { writeFileAtomic } from "./atomic-write.js";
import { PRIVATE_DIR_MODE } from "../lib/private-files.js";
import type { SourceRef } from "./changes.js";

/** A confirmation a person has not given yet (forget, import): kept an hour, in their folder. */
const KEEP_MS = 60 * 60_000;

function folder(dir: string): string {
  return join(dir, "pending");
}

/** Stores what a confirmation button will need and returns its token (goes in the button's custom id). */
export async function keepConfirmation(dir: string, kind: string, payload: unknown): Promise<string> {
  const token = randomBytes(6).toString("hex");
  await mkdir(folder(dir), { recursive: true, mode: PRIVATE_DIR_MODE });
  // Old ones go as new ones come.
  for (const name of await readdir(folder(dir)).catch(() => [] as string[])) {
    const info = await stat(join(folder(dir), name)).catch(() => undefined);
    if (info && Date.now() - info.mtimeMs > KEEP_MS) await rm(join(folder(dir), name), { force: true });
  }
  await writeFileAtomic(join(folder(dir), `${kind}-${token}.json`), JSON.stringify(payload));
  return token;
}

/** Takes a pending confirmation out; undefined when it is unknown or older than an hour. */
export async function takeConfirmation<T>(dir: string, kind: string, token: string): Promise<T | undefined> {
  if (!/^[0-9a-f]{12}$/.test(token)) return undefined;
  const path = join(folder(dir), `${kind}-${token}.json`);
  const info = await stat(path).catch(() => undefined);
  if (!info) return undefined;
  const text = await readFile(path, "utf8");
  await rm(path, { force: true });
  if (Date.now() - info.mtimeMs > KEEP_MS) return undefined;
  return JSON.parse(text) as T;
}

/** Reads a pending confirmation without taking it (a menu pressed more than once); undefined when unknown or older than an hour. */
async function readConfirmation<T>(dir: string, kind: string, token: string): Promise<T | undefined> {
  if (!/^[0-9a-f]{12}$/.test(token)) return undefined;
  const path = join(folder(dir), `${kind}-${token}.json`);
  const info = await stat(path).catch(() => undefined);
  if (!info || Date.now() - info.mtimeMs > KEEP_MS) return undefined;
  return JSON.parse(await readFile(path, "utf8")) as T;
}

/**
 * The confirmations the front ends keep, each with its own shape: what they may use of this file
 * (src/memory/index.ts), so no front end names a kind or a payload of its own. A file that does not
 * have its shape (edited by hand) reads as unknown.
 */
interface PersonFolder {
  readonly dir: string;
}

/** "Not right?" under an answer: the sources it rested on, for an hour; the token goes in the footer's custom ids. */
export const keepSources = (person: PersonFolder, sources: readonly SourceRef[]): Promise<string> => keepConfirmation(person.dir, "sources", { sources });

/** The sources a footer's token names, read as often as the menu is pressed. */
export async function readSources(person: PersonFolder, token: string): Promise<SourceRef[] | undefined> {
  const kept = await readConfirmation<{ sources?: unknown }>(person.dir, "sources", token).catch(() => undefined);
  return Array.isArray(kept?.sources) ? (kept.sources as SourceRef[]) : undefined;
}

/** /memory forget's words, until the person presses Forget or Cancel. */
export const keepForget = (person: PersonFolder, words: string): Promise<string> => keepConfirmation(person.dir, "forget", { words });

/** The words a Forget button stands for, taken (a second press finds nothing); Cancel takes them too. */
export async function takeForget(person: PersonFolder, token: string): Promise<string | undefined> {
  const kept = await takeConfirmation<{ words?: unknown }>(person.dir, "forget", token).catch(() => undefined);
  return typeof kept?.words === "string" ? kept.words : undefined;
}
