import { indexText } from "../../memory/recall/search-text.js";

/** What the owner and the invited members said in a session: what a USER.md write may come from. */
export interface Voices {
  owner: readonly string[];
  guests: readonly string[];
}

/**
 * The words that tell a text apart: the index's tokens (NFKC, lower case, stemmed forms left
 * alone, Han runs as characters and pairs), Latin words of four letters or more, Han pairs.
 * Short words ("to", "the", "我") are in everyone's messages and prove nothing.
 */
function telling(text: string): Set<string> {
  return new Set(indexText(text).split(" ").filter((t) => [...t].length >= 4 || (/\p{Script=Han}/u.test(t) && [...t].length >= 2)));
}

/**
 * What the model has before it of one voice: its newest messages, up to VOICE_CHARS (the history
 * budget's size). Older words were condensed away; reading megabytes on every write would stall.
 */
const VOICE_CHARS = 60_000;
function newest(texts: readonly string[]): string {
  const joined = texts.join("\n");
  return joined.length <= VOICE_CHARS ? joined : joined.slice(-VOICE_CHARS);
}

/**
 * Whether a text for USER.md comes only from what invited members said: some of its telling words
 * are theirs and none is the owner's. Then it is someone else's fact, not the owner's.
 */
export function comesOnlyFromGuests(text: string, voices: Voices): boolean {
  const words = telling(text);
  const owner = telling(newest(voices.owner));
  const guests = telling(newest(voices.guests));
  let fromGuests = 0;
  for (const word of words) {
    if (owner.has(word)) return false;
    if (guests.has(word)) fromGuests++;
  }
  return fromGuests > 0;
}
