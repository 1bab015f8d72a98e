import { open, readdir } from "node:fs/promises";
import { join } from "node:path";
import { dateOfConversation, parseConversation } from "../memory/index.js";

/** The header of a conversation file (title, place, times) is in its first few hundred bytes. */
const HEAD_BYTES = 2_048;
/** The servers a person talks in are looked for in this many of their newest conversations. */
const SCANNED = 300;
/** Files open at once while they are looked through. */
const AT_ONCE = 32;

/** A person's conversation files, newest first. */
export async function conversationNames(dir: string): Promise<string[]> {
  const names = await readdir(dir).catch(() => [] as string[]);
  return names
    .filter((n) => dateOfConversation(n) !== undefined)
    .sort()
    .reverse();
}

/** A conversation file's header alone: what comes before its first message. */
export async function head(path: string): Promise<string> {
  const handle = await open(path, "r");
  try {
    const buffer = Buffer.alloc(HEAD_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, HEAD_BYTES, 0);
    // Up to the first message: the header alone (a cut multi-byte character at the end is dropped).
    const text = buffer.subarray(0, bytesRead).toString("utf8");
    const firstMessage = text.indexOf("\n## ");
    return firstMessage >= 0 ? text.slice(0, firstMessage) : text;
  } finally {
    await handle.close();
  }
}

/**
 * The servers a person's newest conversations name (their `- discord:` line), most recent first.
 * The person's own files say so, and an import can write any id there: a front end asks Discord
 * whether they are a member before it shows anything of a server.
 */
export async function serversTalkedIn(dir: string): Promise<string[]> {
  const names = (await conversationNames(dir)).slice(0, SCANNED);
  const places: (string | undefined)[] = [];
  for (let at = 0; at < names.length; at += AT_ONCE) {
    const batch = names.slice(at, at + AT_ONCE);
    places.push(...(await Promise.all(batch.map(async (name) => parseConversation(await head(join(dir, name)).catch(() => "")).discord))));
  }
  return [...new Set(places.filter((p): p is string => p !== undefined && p !== "@me"))];
}
